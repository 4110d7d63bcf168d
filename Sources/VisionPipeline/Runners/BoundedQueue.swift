import Foundation

/// A first-in first-out queue between two threads, holding at most `capacity` items: `push`
/// waits while it is full, `pop` waits while it is empty and returns nil once it is closed and
/// drained. Keeps the pipeline's memory bounded and its order intact.
// @unchecked Sendable: every `var` is read and written only while holding `condition`'s lock.
package final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private var items: [Element] = []
    private var head = 0
    private var closed = false
    private let capacity: Int
    private let condition = NSCondition()

    package init(capacity: Int) { self.capacity = max(1, capacity) }

    package func push(_ item: Element) {
        condition.lock()
        while items.count - head >= capacity && !closed { condition.wait() }
        if !closed { items.append(item) }
        condition.broadcast()
        condition.unlock()
    }

    package func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !closed { condition.wait() }
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return item
    }

    /// No more items: waiting pops return nil once the queue is drained; pushes are dropped.
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
