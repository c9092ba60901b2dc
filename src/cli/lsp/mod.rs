//! `koma lsp`: a Language Server Protocol server on standard input and output, so that an
//! editor shows koma's diagnostics as an author types, and answers hovers, go to definition,
//! references, formatting, completion and document symbols for `.var` files.
//!
//! This file owns the connection (the `lsp-server` crate's messages, read and written with
//! bounds by [`transport`]), the documents the editor has open and the dispatch of requests.
//! A document is compiled as a whole (full sync) once its edits pause for [`DEBOUNCE`] (or at
//! once when a request about it comes first), and with it only the open documents whose last
//! compilation read it. The rest, one job a file: places as the protocol counts them
//! ([`position`]), koma's report as protocol diagnostics ([`diagnostics`]), and what a
//! document answers about itself ([`features`]).

mod diagnostics;
mod features;
mod position;
mod transport;

use koma::compile::{self, FileLoader, LoadError, Loader, MAX_SOURCE_BYTES, Source};
use koma::rules::Rules;
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, References, Request as _,
};
use lsp_types::{
    CompletionOptions, DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    HoverProviderCapability, OneOf, PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long edits must pause before the document is compiled: typing compiles once a pause,
/// not once a keystroke.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// Runs the server until the editor says `exit`.
pub fn run() -> ExitCode {
    let (connection, writer) = transport::stdio();
    let outcome = serve(&connection);
    drop(connection);
    let joined = writer
        .join()
        .map_err(|_| "the writer of the output stopped".to_string());
    match outcome.and(joined) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: koma lsp: {message}");
            ExitCode::FAILURE
        }
    }
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions::default()),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

fn serve(connection: &Connection) -> Result<(), String> {
    let capabilities = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    connection.initialize(capabilities).map_err(|e| e.to_string())?;
    let mut server = Server::default();
    loop {
        let received = match server.due {
            Some(due) => connection.receiver.recv_deadline(due).map_err(|e| e.is_timeout()),
            None => connection.receiver.recv().map_err(|_| false),
        };
        let message = match received {
            Ok(message) => message,
            // The edits have paused: the documents they touched are compiled.
            Err(true) => {
                publish(connection, server.compile_pending())?;
                continue;
            }
            Err(false) => return Ok(()),
        };
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request).map_err(|e| e.to_string())? {
                    return Ok(());
                }
                // A request is answered from the document as compiled now.
                publish(connection, server.compile_pending())?;
                let response = server.answer(request);
                send(connection, Message::Response(response))?;
            }
            Message::Notification(notification) => {
                if notification.method == "exit" {
                    // The protocol's exit status for an `exit` without `shutdown` first.
                    return Err("the editor said `exit` without `shutdown` first".into());
                }
                let published = server.notice(notification);
                publish(connection, published)?;
            }
            Message::Response(_) => {}
        }
    }
}

fn publish(connection: &Connection, published: Vec<PublishDiagnosticsParams>) -> Result<(), String> {
    for params in published {
        let params = serde_json::to_value(params).map_err(|e| e.to_string())?;
        let note = Notification::new(PublishDiagnostics::METHOD.into(), params);
        send(connection, Message::Notification(note))?;
    }
    Ok(())
}

fn send(connection: &Connection, message: Message) -> Result<(), String> {
    connection.sender.send(message).map_err(|e| e.to_string())
}

/// A document the editor has open.
pub struct Document {
    pub uri: Uri,
    /// The text as the editor has it.
    pub text: Arc<str>,
    /// The name koma compiles it under: its path for a `file:` URI (so that `use` finds files
    /// beside it), else the URI.
    pub name: String,
    /// The version the editor gave the text.
    pub version: Option<i32>,
    /// The rules of the text, or of its last version that compiled.
    pub rules: Option<Rules>,
    /// The names of the files its last compilation read (the files it `uses`, and those they
    /// use): an edit of one of them compiles this document again.
    pub reads: Vec<String>,
}

impl Document {
    pub fn source(&self) -> Source {
        Source {
            name: self.name.clone(),
            text: self.text.clone(),
        }
    }
}

/// The documents open in the editor.
#[derive(Default)]
struct Server {
    documents: HashMap<String, Document>,
    /// The documents edited (or depending on one edited) and not compiled since.
    pending: BTreeSet<String>,
    /// When the pending documents are compiled, unless another edit comes first.
    due: Option<Instant>,
}

impl Server {
    /// Handles a notification; returns the diagnostics of the documents it changed.
    fn notice(&mut self, notification: Notification) -> Vec<PublishDiagnosticsParams> {
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<DidOpenTextDocumentParams>(notification.params) else {
                    return vec![];
                };
                let document = params.text_document;
                let key = self.put(document.uri, document.text.into(), Some(document.version));
                self.pending.insert(key);
                self.compile_pending()
            }
            DidChangeTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<DidChangeTextDocumentParams>(notification.params) else {
                    return vec![];
                };
                // Full sync: the last change holds the whole text.
                let Some(change) = params.content_changes.into_iter().last() else {
                    return vec![];
                };
                let document = params.text_document;
                let key = self.put(document.uri, change.text.into(), Some(document.version));
                self.pending.insert(key);
                self.due = Some(Instant::now() + DEBOUNCE);
                vec![]
            }
            DidCloseTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<DidCloseTextDocumentParams>(notification.params) else {
                    return vec![];
                };
                let Some(closed) = self.documents.remove(params.text_document.uri.as_str()) else {
                    return vec![];
                };
                // Those that read it now read the file on disk.
                let dependents = self.dependents(&closed.name);
                self.pending.remove(params.text_document.uri.as_str());
                self.pending.extend(dependents);
                let mut published = vec![PublishDiagnosticsParams::new(params.text_document.uri, vec![], None)];
                published.extend(self.compile_pending());
                published
            }
            _ => vec![],
        }
    }

    /// Keeps a document's new text (and the rules of its last version that compiled);
    /// returns its key.
    fn put(&mut self, uri: Uri, text: Arc<str>, version: Option<i32>) -> String {
        let key = uri.as_str().to_string();
        let (rules, reads) = self
            .documents
            .remove(&key)
            .map_or((None, vec![]), |d| (d.rules, d.reads));
        let document = Document {
            name: path_of(&uri).unwrap_or_else(|| key.clone()),
            uri,
            text,
            version,
            rules,
            reads,
        };
        self.documents.insert(key.clone(), document);
        key
    }

    /// The open documents whose last compilation read the file `name`.
    fn dependents(&self, name: &str) -> Vec<String> {
        self.documents
            .iter()
            .filter(|(_, d)| d.reads.iter().any(|read| same_file(read, name)))
            .map(|(key, _)| key.clone())
            .collect()
    }

    /// Compiles the pending documents and the open documents that read them (as far as the
    /// compiler follows `use`); returns their diagnostics, the edited documents' first.
    fn compile_pending(&mut self) -> Vec<PublishDiagnosticsParams> {
        self.due = None;
        let mut keys: Vec<String> = std::mem::take(&mut self.pending).into_iter().collect();
        let mut next = 0;
        while next < keys.len() {
            let Some(name) = self.documents.get(&keys[next]).map(|d| d.name.clone()) else {
                next += 1;
                continue;
            };
            next += 1;
            for dependent in self.dependents(&name) {
                if !keys.contains(&dependent) {
                    keys.push(dependent);
                }
            }
        }
        keys.iter().filter_map(|key| self.compile_document(key)).collect()
    }

    /// Compiles an open document, the files it uses read as the editor has them when open.
    fn compile_document(&mut self, key: &str) -> Option<PublishDiagnosticsParams> {
        let document = self.documents.get(key)?;
        let source = document.source();
        let files = Recording {
            files: Files(&self.documents),
            read: RefCell::default(),
        };
        let compiled = compile::compile(source.clone(), &files, &[]);
        let reads = files.read.into_inner();
        let published = diagnostics::of_report(&compiled.report, &source, &document.uri);
        let params = PublishDiagnosticsParams::new(document.uri.clone(), published, document.version);
        let document = self.documents.get_mut(key)?;
        document.reads = reads;
        if let Some(rules) = compiled.rules {
            document.rules = Some(rules);
        }
        Some(params)
    }

    /// Answers a request; one about a document that is not open is answered with nothing.
    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            HoverRequest::METHOD => self.with_params(request, |d, p: lsp_types::HoverParams| {
                features::hover(d, p.text_document_position_params.position)
            }),
            GotoDefinition::METHOD => self.with_params(request, |d, p: lsp_types::GotoDefinitionParams| {
                features::definition(d, p.text_document_position_params.position, &Files(&self.documents))
            }),
            References::METHOD => self.with_params(request, |d, p: lsp_types::ReferenceParams| {
                let position = p.text_document_position.position;
                features::references(d, position, p.context.include_declaration, &Files(&self.documents))
            }),
            Formatting::METHOD => self.with_params(request, |d, _: lsp_types::DocumentFormattingParams| {
                features::formatting(d)
            }),
            Completion::METHOD => self.with_params(request, |d, _: lsp_types::CompletionParams| {
                Some(features::completion(d))
            }),
            DocumentSymbolRequest::METHOD => self.with_params(request, |d, _: lsp_types::DocumentSymbolParams| {
                Some(features::symbols(d))
            }),
            _ => return method_not_found(id, &request.method),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(message) => Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, message),
        }
    }

    /// Reads a request's parameters, finds its document and answers with `then`.
    fn with_params<P, R>(
        &self,
        request: Request,
        then: impl FnOnce(&Document, P) -> Option<R>,
    ) -> Result<serde_json::Value, String>
    where
        P: serde::de::DeserializeOwned + DocumentParams,
        R: serde::Serialize,
    {
        let params: P = serde_json::from_value(request.params).map_err(|e| e.to_string())?;
        let answer = self.documents.get(params.uri().as_str()).and_then(|d| then(d, params));
        serde_json::to_value(answer).map_err(|e| e.to_string())
    }
}

fn method_not_found(id: RequestId, method: &str) -> Response {
    Response::new_err(
        id,
        lsp_server::ErrorCode::MethodNotFound as i32,
        format!("koma lsp does not answer `{method}`"),
    )
}

/// A document's text parsed, for what the editor asks about it; a text past
/// [`MAX_SOURCE_BYTES`] (which the compiler refuses to read) as a file of no statements, so
/// that the editor's questions cost no more than the compiler's answer.
pub fn parsed(text: &str) -> koma::parse::ast::File {
    if text.len() > MAX_SOURCE_BYTES {
        return koma::parse::ast::File::default();
    }
    koma::parse::parse(text).0
}

/// A loader that notes the name of every file it loads.
struct Recording<'a> {
    files: Files<'a>,
    read: RefCell<Vec<String>>,
}

impl Loader for Recording<'_> {
    fn load(&self, name: &str, from: Option<&Source>) -> Result<Source, LoadError> {
        let source = self.files.load(name, from)?;
        self.read.borrow_mut().push(source.name.clone());
        Ok(source)
    }
}

/// Loads files as the file loader does, but a file open in the editor as the editor has it
/// (edits not yet saved included).
pub struct Files<'a>(&'a HashMap<String, Document>);

impl Files<'_> {
    /// The documents open in the editor.
    pub fn documents(&self) -> impl Iterator<Item = &Document> {
        self.0.values()
    }

    /// The URI of a source: an open document's own, else that of the file on disk (a shipped
    /// variant koma holds in memory has none).
    pub fn uri(&self, name: &str) -> Option<Uri> {
        if let Some(open) = self.0.values().find(|d| same_file(&d.name, name)) {
            return Some(open.uri.clone());
        }
        std::path::Path::new(name).is_file().then(|| uri_of(name)).flatten()
    }
}

impl Loader for Files<'_> {
    fn load(&self, name: &str, from: Option<&Source>) -> Result<Source, LoadError> {
        let source = FileLoader.load(name, from)?;
        let open = self.0.values().find(|d| same_file(&d.name, &source.name));
        Ok(open.map_or(source, Document::source))
    }
}

/// Whether two paths name one file (`dir/../lib.var` and `lib.var` do).
fn same_file(a: &str, b: &str) -> bool {
    a == b || std::fs::canonicalize(a).is_ok_and(|a| std::fs::canonicalize(b).is_ok_and(|b| a == b))
}

/// Request parameters that name a document.
trait DocumentParams {
    fn uri(&self) -> &Uri;
}

impl DocumentParams for lsp_types::HoverParams {
    fn uri(&self) -> &Uri {
        &self.text_document_position_params.text_document.uri
    }
}

impl DocumentParams for lsp_types::GotoDefinitionParams {
    fn uri(&self) -> &Uri {
        &self.text_document_position_params.text_document.uri
    }
}

impl DocumentParams for lsp_types::ReferenceParams {
    fn uri(&self) -> &Uri {
        &self.text_document_position.text_document.uri
    }
}

impl DocumentParams for lsp_types::CompletionParams {
    fn uri(&self) -> &Uri {
        &self.text_document_position.text_document.uri
    }
}

impl DocumentParams for lsp_types::DocumentFormattingParams {
    fn uri(&self) -> &Uri {
        &self.text_document.uri
    }
}

impl DocumentParams for lsp_types::DocumentSymbolParams {
    fn uri(&self) -> &Uri {
        &self.text_document.uri
    }
}

/// The path of a `file:` URI, its `%XX` escapes decoded.
pub fn path_of(uri: &Uri) -> Option<String> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| path.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The `file:` URI of a path, with what is not allowed in a URI path `%XX`-escaped.
pub fn uri_of(path: &str) -> Option<Uri> {
    let absolute = std::path::absolute(path).ok()?;
    let mut uri = String::from("file://");
    for byte in absolute.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri.parse().ok()
}
