// Article:begin "FormsAndValidation.md", Swift blocks 4 and 5 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinWeb // wrapper

/// The fields of the note form.
struct NoteForm: Decodable {
    var text: String
    var side: String
    var urgent: Bool
}

extension FormAction where Input == NoteForm {
    /// Send a note to the kitchen, checked as the person types.
    static var note: FormAction<NoteForm> {
        FormAction("note", validatesWhileTyping: true) { note in
            guard !note.text.isEmpty else { throw FormError("Write a note.", field: "text") }
            guard note.text.count <= 140 else { throw FormError("Keep it to 140 characters.", field: "text") }
        }
    }
}

final class NoteView: WebViewController {
    init(listener: NoteInteractor) {
        super.init()
        action(.note) { note in try await listener.didSend(note) }
    }

    override func body() -> HTML {
        form(.note, class: "note", content: """
            \(field("text", .textarea, label: "Note", of: .note))\
            \(field("side", .select([.init("slaw", label: "Slaw"), .init("beans", label: "Beans")]), label: "Side", of: .note))\
            \(field("urgent", .checkbox, label: "Urgent", of: .note))\
            \(submitButton("Send", working: "Sending…"))
            """)
    }
}

actor NoteInteractor { // wrapper
    private(set) var sent: [String] = [] // wrapper
    func didSend(_ note: NoteForm) async throws { sent.append(note.text) } // wrapper
} // wrapper
// Article:end
