import Testing
@testable import NapkinWeb

@Suite("Byte writer", .timeLimit(.minutes(1)))
struct ByteWriterTests {
    @Test("decimals are written as many digits as counted, for every length")
    func decimals() {
        for value: UInt64 in [0, 7, 9, 10, 99, 100, 12_345, 1 << 32, .max] {
            let text = String(value)
            #expect(ByteWriter.decimalCount(value) == text.utf8.count)
            let bytes = [UInt8](unsafeUninitializedCapacity: text.utf8.count) { buffer, initialized in
                var writer = ByteWriter(buffer)
                writer.put(decimal: value)
                initialized = writer.count
            }
            #expect(bytes == Array(text.utf8))
        }
    }

    @Test("text, bytes and single bytes land one after another, and the count is what was written")
    func pieces() {
        let bytes = [UInt8](unsafeUninitializedCapacity: 9) { buffer, initialized in
            var writer = ByteWriter(buffer)
            writer.put("id: ")
            [UInt8](arrayLiteral: 0x41, 0x42).withUnsafeBufferPointer { writer.put($0) }
            writer.put(0x0A)
            writer.put(decimal: 42)
            writer.put(UnsafeBufferPointer(start: nil, count: 0))
            initialized = writer.count
            #expect(writer.count == 9)
        }
        #expect(bytes == Array("id: AB\n42".utf8))
    }

    @Test("copying more bytes than the buffer holds stops the process instead of writing past it")
    func overflowTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = [UInt8](unsafeUninitializedCapacity: 3) { buffer, initialized in
                var writer = ByteWriter(UnsafeMutableBufferPointer(rebasing: buffer[..<3]))
                writer.put("four")
                initialized = writer.count
            }
        }
        await #expect(processExitsWith: .failure) {
            _ = [UInt8](unsafeUninitializedCapacity: 2) { buffer, initialized in
                var writer = ByteWriter(UnsafeMutableBufferPointer(rebasing: buffer[..<2]))
                writer.put(decimal: 100)
                initialized = writer.count
            }
        }
    }
}
