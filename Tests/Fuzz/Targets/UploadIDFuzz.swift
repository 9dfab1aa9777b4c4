// fuzz-max-len: 256
@testable import NapkinHTTP

/// The name of a kept upload, from a URL path or another process's message,
/// in bytes: `UploadStore` never traps, and a name it accepts is 32
/// lowercase hex digits, one dot and a lowercase alphanumeric extension,
/// counted independently here, so it can never name a path outside the
/// store's directory. A name it finds a type for has one of its extensions.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let id = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    let wellFormed = UploadStore.isWellFormedID(id)
    let type = uploads.type(of: id)
    require(type == nil || wellFormed, "\(show(id)): a type for an id not well formed")
    guard wellFormed else { return 0 }
    let bytes = Array(id.utf8)
    require(bytes.count > 33 && bytes[32] == UInt8(ascii: "."), "\(show(id)): accepted without a 32-digit name and a dot")
    require(bytes[..<32].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }, "\(show(id)): a name not lowercase hex")
    require(bytes[33...].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }, "\(show(id)): an extension not lowercase alphanumeric")
    let fileExtension = String(decoding: bytes[33...], as: UTF8.self)
    require((type != nil) == ["jpg", "png"].contains(fileExtension), "\(show(id)): type \(String(describing: type)) for .\(fileExtension)")
    return 0
}

/// A store of JPEG and PNG files; its directory is made once, and nothing is
/// kept in it.
private let uploads = UploadStore(directory: "/tmp/napkin-fuzz-uploads", types: ["jpg": .jpeg, "png": .png], maxBytes: 1024)
