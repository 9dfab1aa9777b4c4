@_spi(Napkin) import NapkinSupport
import Testing

/// napkin's own SHA-256 and HMAC-SHA256 (session keys in Redis are keyed
/// hashes of the ids), checked against the published test vectors.
@Suite("SHA-256 and HMAC-SHA256", .timeLimit(.minutes(1)))
struct HMACTests {
    private static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    @Test("SHA-256 of the FIPS 180-2 examples, the empty message and a million a's")
    func sha256() {
        #expect(SHA256.hash([]).hexDigits == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hash(Array("abc".utf8)).hexDigits == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hexDigits
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)).hexDigits
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // 55, 56 and 64 bytes: the padding's edges.
        #expect(SHA256.hash([UInt8](repeating: 0x61, count: 55)).hexDigits
            == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(SHA256.hash([UInt8](repeating: 0x61, count: 56)).hexDigits
            == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(SHA256.hash([UInt8](repeating: 0x61, count: 64)).hexDigits
            == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    @Test("HMAC-SHA256 of RFC 4231's test cases 1 to 7")
    func rfc4231() {
        let cases: [(key: [UInt8], data: [UInt8], mac: String)] = [
            ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            (Self.bytes(hex: "0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
             "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
            ([UInt8](repeating: 0xaa, count: 131), Array(
                "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
             "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ]
        for (key, data, mac) in cases {
            #expect(HMAC.sha256(key: key, message: data).hexDigits == mac)
        }
        // Test case 5: the output truncated to 128 bits.
        let truncated = HMAC.sha256(key: [UInt8](repeating: 0x0c, count: 20), message: Array("Test With Truncation".utf8))
        #expect(Array(truncated.prefix(16)).hexDigits == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test("digests compare equal only when every byte is")
    func equality() {
        let mac = HMAC.sha256(key: [1], message: [2])
        #expect(HMAC.equal(mac, mac))
        #expect(!HMAC.equal(mac, Array(mac.dropLast()) + [mac.last! ^ 1]))
        #expect(!HMAC.equal(mac, Array(mac.dropLast())))
    }
}
