import NapkinWeb

/// The fields of the announcement form a signed-in guest fills in.
struct AnnouncementForm: Decodable {
    var text: String
    /// JPEG or PNG, at most 2 MiB; a file input left empty sends none.
    var photo: UploadedFile?
}

extension FormAction where Input == AnnouncementForm {
    /// Say something to the whole house. Checked as the guest types: an
    /// empty or too long announcement is pointed out before it is sent.
    static var announce: FormAction<AnnouncementForm> {
        FormAction("announce", validatesWhileTyping: true) { form in
            _ = try Announcement(formText: form.text)
        }
    }
}

extension Announcement {
    /// An announcement typed into the announcement form: refused as a
    /// ``FormError`` on its `text` field, in the rule's words.
    init(formText text: String) throws(FormError) {
        do throws(Invalid) {
            try self.init(validating: text)
        } catch {
            throw FormError(error.description, field: "text")
        }
    }
}
