// Article:begin "Uploads.md", Swift block 1 — a faithful copy: lines marked `// wrapper` are not in the article.
import Foundation // wrapper
import NapkinHTTP // wrapper
import NapkinWeb // wrapper
import napkin // wrapper

/// The fields of the profile form.
struct ProfileForm: Decodable {
    var name: String
    /// JPEG or PNG; a file input left empty sends none.
    var picture: UploadedFile?
}

final class ProfileView: WebViewController {
    init(listener: ProfileInteractor) {
        super.init()
        action("save", as: ProfileForm.self) { form in
            if let picture = form.picture {
                // The declared type must be one of these, and the file's
                // first bytes must say so too.
                do { try picture.requireType([.jpeg, .png]) } catch {
                    throw FormError("The picture must be a JPEG or PNG image.", field: "picture")
                }
                // Kept past the request: moved out of the temporary file.
                try picture.move(to: "/var/lib/app/pictures/\(listener.id).img")
            }
            await listener.didSave(name: form.name)
        }
    }

    override func body() -> HTML {
        form("save", multipart: true, content: """
            <label for="name">Name</label><input id="name" name="name">\
            <label for="picture">Picture</label>\
            <input id="picture" name="picture" type="file" accept="image/jpeg,image/png">\
            <button type="submit">Save</button>
            """)
    }
}

/// Who the profile is. // wrapper
actor ProfileInteractor { // wrapper
    nonisolated let id = "me" // wrapper
    func didSave(name: String) {} // wrapper
} // wrapper
