/// Shape agreement between an operator's inputs and outputs, for the ops whose kernels (or
/// XNNPACK) trust the declared shapes: element-wise ops, convolutions, fully connected, reshape,
/// concatenation, pooling and padding. A mismatch there makes the runtime read or write out of
/// bounds, so ``ModelVerifier`` refuses it.
enum OperatorShapes {
    /// Ops whose output has the shape of their first input.
    static let sameShape: Set<Int32> = [
        6, 8, 11, 13, 14, 19, 20, 21, 25, 28, 47, 50, 53, 59, 66, 73, 75, 76, 87, 92, 93, 98, 101, 104,
        108, 111, 114, 116, 117, 124, 150, 152, 158,
    ]
    /// Binary element-wise ops with NumPy broadcasting.
    static let broadcasting: Set<Int32> = [0, 18, 41, 42, 55, 57, 78, 90, 95, 99]

    /// Elements of `shape` (the caller has checked it for overflow).
    static func count(_ shape: [Int]) -> Int { shape.reduce(1, *) }

    /// The broadcast of two shapes, or nil when they do not broadcast.
    static func broadcast(_ a: [Int], _ b: [Int]) -> [Int]? {
        let n = max(a.count, b.count)
        var out: [Int] = []
        for i in 0..<n {
            let x = i < n - a.count ? 1 : a[i - (n - a.count)]
            let y = i < n - b.count ? 1 : b[i - (n - b.count)]
            guard x == y || x == 1 || y == 1 else { return nil }
            out.append(x == 1 ? y : x)
        }
        return out
    }

    /// How many inputs the checked ops take (convolutions list their bias, −1 when absent).
    static func arity(_ code: Int32) -> ClosedRange<Int>? {
        if sameShape.contains(code) { return 1...3 }
        if broadcasting.contains(code) { return 2...2 }
        switch code {
        case 3, 4, 9: return 3...4
        case 1, 17: return 1...1
        case 22: return 1...2
        case 2: return 1...100_000
        case 34: return 2...2
        case 60: return 2...3
        default: return nil
        }
    }

    /// Output height and width of a window op (SAME or VALID padding), nil when the window cannot fit.
    static func window(_ input: Int, filter: Int, stride: Int, dilation: Int, same: Bool) -> Int? {
        guard stride >= 1, stride <= 1 << 16, dilation >= 1, dilation <= 1 << 16, filter >= 1 else { return nil }
        let effective = (filter - 1) * dilation + 1
        if same { return effective <= 2 * input + 1 ? (input + stride - 1) / stride : nil }
        return effective <= input ? (input - effective + stride) / stride : nil
    }

    /// Ops whose output shape follows from a small int32 input (shape, paddings, size, multiples,
    /// permutation): that input must be a constant of the right size, and agree with the output.
    static let shapeInputs: [Int32: Int] = [22: 1, 34: 1, 60: 1, 100: 1, 23: 1, 97: 1, 69: 1, 39: 1, 130: 1]

    /// What disagrees between `code`'s shape-defining constant `values` (nil: not a constant), its
    /// first input `x` and its output `out`.
    static func constantProblem(_ code: Int32, values: [Int]?, x: [Int], out: [Int]) -> String? {
        if code == 22 {  // RESHAPE: a non-constant shape is checked at run time by the kernel
            guard let v = values else { return nil }
            guard v.count == out.count, zip(v, out).allSatisfy({ $0 == $1 || $0 == -1 }),
                v.filter({ $0 == -1 }).count <= 1
            else {
                return "shape input \(v) does not give output \(out)"
            }
            return nil
        }
        guard let v = values else { return "its shape-defining input is not a constant" }
        switch code {
        case 34, 60, 100:  // paddings [rank, 2]
            guard v.count == 2 * x.count, x.count == out.count, v.allSatisfy({ $0 >= 0 && $0 <= 1 << 16 }),
                x.indices.allSatisfy({ out[$0] == x[$0] + v[2 * $0] + v[2 * $0 + 1] })
            else {
                return "paddings \(v) do not turn \(x) into \(out)"
            }
        case 23, 97:  // new height and width
            guard v.count == 2, out.count == 4, v[0] == out[1], v[1] == out[2] else {
                return "size \(v) does not match output \(out)"
            }
        case 69:  // multiples
            guard v.count == x.count, x.count == out.count, v.allSatisfy({ $0 >= 1 && $0 <= 1 << 16 }),
                x.indices.allSatisfy({ out[$0] == x[$0] * v[$0] })
            else { return "multiples \(v) do not turn \(x) into \(out)" }
        case 39:  // permutation
            guard v.count == x.count, Set(v) == Set(0..<x.count), out.count == x.count,
                v.indices.allSatisfy({ out[$0] == x[v[$0]] })
            else {
                return "permutation \(v) does not turn \(x) into \(out)"
            }
        case 130:  // BROADCAST_TO
            guard v == out else { return "shape \(v) differs from output \(out)" }
        default:
            break
        }
        return nil
    }

    /// What disagrees for builtin op `code` with these input and output shapes (nil = absent
    /// tensor) and builtin options (`option(slot)`, nil when absent), or nil when all agree or the
    /// op is not one checked here.
    static func problem(
        _ code: Int32, inputs: [[Int]?], outputs: [[Int]?], option: (Int) throws -> Int32? = { _ in nil }
    ) rethrows -> String? {
        func input(_ i: Int) -> [Int]? { i < inputs.count ? inputs[i] : nil }
        if let arity = arity(code), !arity.contains(inputs.count) || outputs.count != 1 {
            let expected =
                arity.lowerBound == arity.upperBound ? "\(arity.lowerBound)" : "\(arity.lowerBound)–\(arity.upperBound)"
            return "\(inputs.count) inputs and \(outputs.count) outputs, expected \(expected) and 1"
        }
        guard let out = outputs.first ?? nil else { return nil }
        if [1, 3, 4, 17].contains(code), let x = input(0), x.count == 4, out.count == 4 {
            // Window ops: strides, dilations and window sizes give the output's height and width.
            let pool = code == 1 || code == 17
            let f = pool ? nil : input(1)
            let fh = pool ? Int(try option(4) ?? 0) : (f.map { $0.count == 4 ? $0[1] : 0 } ?? 0)
            let fw = pool ? Int(try option(3) ?? 0) : (f.map { $0.count == 4 ? $0[2] : 0 } ?? 0)
            let dilationSlots = code == 4 ? (5, 6) : (4, 5)
            let dw = pool ? 1 : Int(try option(dilationSlots.0) ?? 1),
                dh = pool ? 1 : Int(try option(dilationSlots.1) ?? 1)
            let same = (try option(0) ?? 0) == 0
            let sw = Int(try option(1) ?? 0), sh = Int(try option(2) ?? 0)
            guard let h = window(x[1], filter: fh, stride: sh, dilation: dh, same: same),
                let w = window(x[2], filter: fw, stride: sw, dilation: dw, same: same)
            else {
                return "window \(fh)×\(fw), strides \(sh)×\(sw), dilations \(dh)×\(dw) do not fit input \(x)"
            }
            guard out[1] == h, out[2] == w else { return "output \(out) should be \(h)×\(w) for input \(x)" }
        }
        if sameShape.contains(code) {
            guard let x = input(0) else { return nil }
            return x == out ? nil : "output shape \(out) differs from input shape \(x)"
        }
        if broadcasting.contains(code) {
            guard let x = input(0), let y = input(1) else { return nil }
            guard let b = broadcast(x, y) else { return "inputs \(x) and \(y) do not broadcast" }
            return count(b) == count(out) ? nil : "output shape \(out) is not the broadcast \(b) of its inputs"
        }
        switch code {
        case 3:  // CONV_2D: NHWC input, OHWI filter, bias [O]
            guard let x = input(0), let f = input(1) else { return nil }
            guard x.count == 4, f.count == 4, out.count == 4 else {
                return "input \(x), filter \(f) and output \(out) must have rank 4"
            }
            guard f[3] > 0, x[3] % f[3] == 0, out[3] == f[0], out[0] == x[0] else {
                return "filter \(f) does not fit input \(x) and output \(out)"
            }
            if let bias = input(2), count(bias) != f[0] { return "bias \(bias) does not match \(f[0]) output channels" }
        case 4:  // DEPTHWISE_CONV_2D: filter [1, H, W, C×multiplier]
            guard let x = input(0), let f = input(1) else { return nil }
            guard x.count == 4, f.count == 4, out.count == 4 else {
                return "input \(x), filter \(f) and output \(out) must have rank 4"
            }
            guard f[0] == 1, x[3] > 0, f[3] % x[3] == 0, out[3] == f[3], out[0] == x[0] else {
                return "filter \(f) does not fit input \(x) and output \(out)"
            }
            if let bias = input(2), count(bias) != f[3] { return "bias \(bias) does not match \(f[3]) output channels" }
        case 9:  // FULLY_CONNECTED: filter [units, depth]
            guard let x = input(0), let f = input(1) else { return nil }
            guard f.count == 2, f[1] > 0, count(x) % f[1] == 0 else { return "filter \(f) does not fit input \(x)" }
            guard count(out) == count(x) / f[1] * f[0] else {
                return "output \(out) does not hold \(count(x) / f[1]) rows of \(f[0]) units"
            }
            if let bias = input(2), count(bias) != f[0] { return "bias \(bias) does not match \(f[0]) units" }
        case 22:  // RESHAPE
            guard let x = input(0) else { return nil }
            return count(x) == count(out) ? nil : "output \(out) holds a different number of elements than input \(x)"
        case 2:  // CONCATENATION: same rank; equal dims but along one axis, where they add up
            let shapes = inputs.compactMap { $0 }
            guard shapes.count == inputs.count, shapes.allSatisfy({ $0.count == out.count }) else {
                return "inputs \(inputs) and output \(out) differ in rank"
            }
            let fits = out.indices.contains { axis in
                shapes.map { $0[axis] }.reduce(0, +) == out[axis]
                    && out.indices.allSatisfy { d in d == axis || shapes.allSatisfy { $0[d] == out[d] } }
            }
            return fits ? nil : "inputs \(shapes) do not concatenate to \(out)"
        case 1, 17:  // AVERAGE_POOL_2D, MAX_POOL_2D
            guard let x = input(0) else { return nil }
            guard x.count == 4, out.count == 4, x[0] == out[0], x[3] == out[3] else {
                return "input \(x) and output \(out) differ in batch or channels"
            }
        case 34, 60:  // PAD, PADV2
            guard let x = input(0) else { return nil }
            guard x.count == out.count, zip(x, out).allSatisfy({ $0 <= $1 }) else {
                return "output \(out) is smaller than input \(x)"
            }
        default:
            break
        }
        return nil
    }
}
