import Foundation

/// MOTChallenge's text format: one box a line, `frame,id,x,y,width,height[,conf,…]` (1-based
/// frames, pixels). A ground-truth line whose seventh field is 0 is not to be evaluated (the
/// benchmark's "ignore" mark) and is left out.
public enum MOTFile {
    /// The boxes of a MOTChallenge text file (`frame,id,x,y,w,h,…`); with `groundTruth`, the lines marked ignored (flag
    /// 0) are left out. Throws ``AnalyticsError`` naming the bad line.
    public static func read(_ text: String, groundTruth: Bool = false) throws -> [TrackedBox] {
        var boxes: [TrackedBox] = []
        for (n, raw) in text.split(whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard fields.count >= 6, let f = fields[0], let id = fields[1], let x = fields[2], let y = fields[3],
                let w = fields[4], let h = fields[5],
                f == f.rounded(), id == id.rounded(), abs(f) < 1e9, abs(id) < 1e15, [x, y, w, h].allSatisfy(\.isFinite)
            else {
                throw AnalyticsError(
                    .badInput, "line \(n + 1): expected 'frame,id,x,y,width,height' numbers, got '\(line.prefix(80))'")
            }
            if groundTruth, fields.count >= 7, fields[6] == 0 { continue }
            boxes.append(TrackedBox(frame: Int(f), id: Int(id), box: Box(x: x, y: y, width: w, height: h)))
        }
        return boxes
    }
}
