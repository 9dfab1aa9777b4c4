import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct FormDecoderTests {
    enum Size: String, Decodable { case small, large }
    struct Order: Decodable, Equatable {
        var name: String
        var quantity: Int
        var price: Double
        var gift: Bool
        var rush: Bool
        var note: String?
        var size: Size
        var toppings: [String]
    }

    @Test func decodesFormTypes() throws {
        let body = Array("name=Ada+L%C3%B6vel&quantity=3&price=9.5&gift=on&size=large&toppings=ham&toppings=egg".utf8)
        let order = try FormDecoder().decode(Order.self, from: body)
        #expect(order == Order(name: "Ada Lövel", quantity: 3, price: 9.5, gift: true, rush: false, note: nil, size: .large, toppings: ["ham", "egg"]))
    }

    @Test func missingAndMalformed() {
        struct Needs: Decodable { var count: Int }
        #expect(throws: (any Error).self) { try FormDecoder().decode(Needs.self, from: Array("other=1".utf8)) }
        #expect(throws: (any Error).self) { try FormDecoder().decode(Needs.self, from: Array("count=abc".utf8)) }
        #expect(throws: (any Error).self) { try FormDecoder().decode(Needs.self, from: Array("count=%ZZ".utf8)) }
        #expect(throws: (any Error).self) { try FormDecoder().decode(Needs.self, from: [0x63, 0x6F, 0x75, 0x6E, 0x74, 0x3D, 0xFF]) }
    }

    @Test func formFieldsKeepOrder() throws {
        let request = Request(method: .post, path: "/", headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"], body: Array("b=2&a=1&b=3".utf8))
        let fields = try request.formFields()
        #expect(fields.map(\.name) == ["b", "a", "b"])
        #expect(fields.map(\.value) == ["2", "1", "3"])
        let json = Request(method: .post, path: "/", headers: ["Content-Type": "application/json"], body: [])
        #expect(throws: HTTPError.self) { try json.formFields() }
    }
}
