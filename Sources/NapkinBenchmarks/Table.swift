import Foundation

/// A plain-text table that benchmark suites print: a title, a header row and
/// right-aligned figures, ready to paste into the Performance article.
struct Table {
    let title: String
    let columns: [String]
    private(set) var rows: [[String]] = []

    init(_ title: String, columns: [String]) {
        self.title = title
        self.columns = columns
    }

    mutating func add(_ cells: String...) {
        rows.append(cells)
    }

    mutating func add(row cells: [String]) {
        rows.append(cells)
    }

    func print() {
        let all = [columns] + rows
        let widths = columns.indices.map { index in
            all.map { index < $0.count ? $0[index].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            "| " + cells.indices.map { index in
                let cell = cells[index]
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: " | ") + " |"
        }
        Swift.print("\n### \(title)\n")
        Swift.print(line(columns))
        Swift.print("|" + widths.enumerated().map { index, width in
            index == 0 ? String(repeating: "-", count: width + 2) : String(repeating: "-", count: width + 1) + ":"
        }.joined(separator: "|") + "|")
        for row in rows { Swift.print(line(row)) }
    }
}

/// Formats a number with a fixed count of decimals, for table cells.
func fmt(_ value: Double, _ decimals: Int = 1) -> String {
    String(format: "%.\(decimals)f", value)
}
