// fuzz-max-len: 4096
import Foundation
@testable import NapkinHTTP

/// A JSON body as a handler would declare it: nested values, optionals and lists.
struct Order: Codable, Equatable {
    struct Line: Codable, Equatable {
        var sku: String
        var quantity: Int
        var price: Double?
    }
    var id: UInt64
    var customer: String
    var express: Bool
    var note: String?
    var lines: [Line]
    var tags: [String: String]?
}

/// JSON bodies through `Request.decode`: never trap, fail only with a 400 whose
/// reason is short, and a decoded value survives a JSON round trip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let request = Request(method: .post, path: "/orders", headers: ["Content-Type": "application/json; charset=utf-8"],
                          body: fuzzBytes(data, size))
    let order: Order
    do { order = try request.decode(Order.self) } catch let error as HTTPError {
        require(error.status == .badRequest, "JSON body answered \(error.status.code)")
        return 0
    } catch {
        fatalError("Request.decode threw a non-HTTP error: \(error)")
    }
    guard let encoded = try? JSONEncoder().encode(order) else {
        fatalError("a decoded order does not encode: \(order)")
    }
    let again = try? Request(method: .post, path: "/orders", headers: ["Content-Type": "application/json"],
                             body: Array(encoded)).decode(Order.self)
    require(again == order, "\(order) does not survive a JSON round trip")
    return 0
}
