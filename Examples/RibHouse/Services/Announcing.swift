import NapkinWeb

/// Sends an announcement posted from a page, with its photo kept in the
/// app's photos: checked first, then heard by every process.
struct Announcing: Sendable {
    let announcements: SharedEvents<Announcement>
    let photos: UploadStore

    /// Announces `text` with `photo`; a broken rule is a ``FormError`` the
    /// page shows by the form.
    func announce(text: String, photo: UploadedFile?) async throws {
        let checked = try Announcement(formText: text)
        var id: String?
        if let photo {
            do { id = try photos.keep(photo) } catch {
                throw FormError(error == .notAccepted ? "The photo must be a JPEG or PNG image." : error.description, field: "photo")
            }
        }
        let announcement = try Announcement(validating: checked.text, photo: id)
        do {
            try await announcements.send(announcement)
        } catch {
            throw FormError("The announcement reached this server only. Try again in a moment.")
        }
    }
}
