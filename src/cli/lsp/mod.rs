//! `koma lsp`: a Language Server Protocol server on standard input and output, so that an
//! editor shows koma's diagnostics as an author types, and answers hovers, go to definition,
//! references, formatting, completion and document symbols for `.var` files.
//!
//! This file owns the connection (the `lsp-server` crate: JSON-RPC with `Content-Length`
//! framing), the documents the editor has open and the dispatch of requests. Each document
//! is compiled as a whole on every change (full sync): koma compiles a shipped variant in
//! milliseconds. The rest, one job a file: places as the protocol counts them
//! ([`position`]), koma's report as protocol diagnostics ([`diagnostics`]), and what a
//! document answers about itself ([`features`]).

mod diagnostics;
mod features;
mod position;

use koma::compile::{self, FileLoader, LoadError, Loader, Source};
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
use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::Arc;

/// Runs the server until the editor says `exit`.
pub fn run() -> ExitCode {
    let (connection, io_threads) = Connection::stdio();
    let outcome = serve(&connection);
    drop(connection);
    let joined = io_threads.join();
    match outcome.and(joined.map_err(|e| e.to_string())) {
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
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request).map_err(|e| e.to_string())? {
                    return Ok(());
                }
                let response = server.answer(request);
                send(connection, Message::Response(response))?;
            }
            Message::Notification(notification) => {
                if notification.method == "exit" {
                    // The protocol's exit status for an `exit` without `shutdown` first.
                    return Err("the editor said `exit` without `shutdown` first".into());
                }
                for published in server.notice(notification) {
                    let params = serde_json::to_value(published).map_err(|e| e.to_string())?;
                    let note = Notification::new(PublishDiagnostics::METHOD.into(), params);
                    send(connection, Message::Notification(note))?;
                }
            }
            Message::Response(_) => {}
        }
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
                self.recompile(Some(&key))
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
                self.recompile(Some(&key))
            }
            DidCloseTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<DidCloseTextDocumentParams>(notification.params) else {
                    return vec![];
                };
                self.documents.remove(params.text_document.uri.as_str());
                let mut published = vec![PublishDiagnosticsParams::new(params.text_document.uri, vec![], None)];
                published.extend(self.recompile(None));
                published
            }
            _ => vec![],
        }
    }

    /// Keeps a document's new text (and the rules of its last version that compiled);
    /// returns its key.
    fn put(&mut self, uri: Uri, text: Arc<str>, version: Option<i32>) -> String {
        let key = uri.as_str().to_string();
        let rules = self.documents.remove(&key).and_then(|d| d.rules);
        let document = Document {
            name: path_of(&uri).unwrap_or_else(|| key.clone()),
            uri,
            text,
            version,
            rules,
        };
        self.documents.insert(key.clone(), document);
        key
    }

    /// Compiles the document `changed` and every other open document that `use`s a file
    /// (the changed one may be among those it uses); returns their diagnostics, the changed
    /// document's first.
    fn recompile(&mut self, changed: Option<&str>) -> Vec<PublishDiagnosticsParams> {
        let mut keys: Vec<String> = changed.map(str::to_string).into_iter().collect();
        keys.extend(
            self.documents
                .iter()
                .filter(|(key, document)| Some(key.as_str()) != changed && uses_files(&document.text))
                .map(|(key, _)| key.clone()),
        );
        keys.iter().filter_map(|key| self.compile_document(key)).collect()
    }

    /// Compiles an open document, the files it uses read as the editor has them when open.
    fn compile_document(&mut self, key: &str) -> Option<PublishDiagnosticsParams> {
        let document = self.documents.get(key)?;
        let source = document.source();
        let compiled = compile::compile(source.clone(), &Files(&self.documents), &[]);
        let published = diagnostics::of_report(&compiled.report, &source, &document.uri);
        let params = PublishDiagnosticsParams::new(document.uri.clone(), published, document.version);
        if let Some(rules) = compiled.rules {
            self.documents.get_mut(key)?.rules = Some(rules);
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

/// Whether a text has a `use` statement.
fn uses_files(text: &str) -> bool {
    let (file, _) = koma::parse::parse(text);
    file.statements
        .iter()
        .any(|s| matches!(s.node, koma::parse::ast::Statement::Use { .. }))
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
