//! `koma lsp` as an editor sees it: a client in the test spawns the server and speaks
//! JSON-RPC with `Content-Length` framing, as VS Code and Neovim do.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const URI: &str = "file:///nowhere/mini.var";

/// A fixed variant: two pieces named "Gold" (the second label points at the first).
const DUPLICATE_NAME: &str = "variant \"Mini\"
board 5 x 5
piece K  \"King\"  sfen k royal : step all
piece G  \"Gold\"  sfen g : step orthogonal forward-diagonal
piece S  \"Gold\"  sfen s : step forward diagonal
piece P  \"Pawn\"  sfen p promotes +P : step forward
piece +P \"Tokin\" : as G
setup
  d: 4 P
  e: G S K . .
promotion zone 1
";

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
    /// The document the client has open.
    uri: String,
}

impl Client {
    /// Starts `koma lsp` and initializes it.
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("koma starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut client = Client {
            child,
            stdin,
            stdout,
            next_id: 1,
            uri: URI.to_string(),
        };
        let result = client.request("initialize", json!({"capabilities": {}}));
        assert_eq!(result["capabilities"]["textDocumentSync"], json!(1), "full sync");
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut length = None;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the server closed its output"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = Some(n.parse::<usize>().unwrap());
            }
        }
        let mut body = vec![0; length.expect("a Content-Length header")];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its result, skipping notifications sent meanwhile.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                assert!(message.get("error").is_none(), "{message}");
                return message["result"].clone();
            }
        }
    }

    /// The next diagnostics published.
    fn diagnostics(&mut self) -> Value {
        loop {
            let message = self.receive();
            if message["method"] == "textDocument/publishDiagnostics" {
                return message["params"].clone();
            }
        }
    }

    fn open(&mut self, text: &str) -> Value {
        let document = json!({"uri": self.uri, "languageId": "koma", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": document}));
        self.diagnostics()
    }

    fn change(&mut self, version: i64, text: &str) -> Value {
        let params = json!({
            "textDocument": {"uri": self.uri, "version": version},
            "contentChanges": [{"text": text}],
        });
        self.notify("textDocument/didChange", params);
        self.diagnostics()
    }

    fn at(&mut self, method: &str, line: u32, character: u32) -> Value {
        let params = json!({
            "textDocument": {"uri": self.uri},
            "position": {"line": line, "character": character},
        });
        self.request(method, params)
    }

    /// Shuts the server down as an editor does; it must exit with success.
    fn stop(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        drop(self.stdin);
        assert!(self.child.wait().unwrap().success());
    }
}

fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}})
}

#[test]
fn a_broken_file_gets_its_diagnostics_with_ranges_and_related_labels() {
    let mut client = Client::start();
    let published = client.open(DUPLICATE_NAME);
    assert_eq!(published["uri"], URI);
    assert_eq!(published["version"], 1);
    let diagnostics = published["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "koma::duplicate-name");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "koma");
    assert!(d["message"].as_str().unwrap().contains("help:"), "{d}");
    // `"Gold"` of the Silver, line 5 (from 0: 4), columns 9 to 15.
    assert_eq!(d["range"], range((4, 9), (4, 15)));
    let related = &d["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], URI);
    assert_eq!(related["location"]["range"], range((3, 9), (3, 15)));
    client.stop();
}

#[test]
fn fixing_the_file_clears_its_diagnostics() {
    let mut client = Client::start();
    assert!(
        !client.open(DUPLICATE_NAME)["diagnostics"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let fixed = DUPLICATE_NAME.replace("piece S  \"Gold\"", "piece S  \"Silver\"");
    let published = client.change(2, &fixed);
    assert_eq!(published["version"], 2);
    assert_eq!(published["diagnostics"], json!([]));
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": URI}}));
    assert_eq!(client.diagnostics()["diagnostics"], json!([]));
    client.stop();
}

#[test]
fn ranges_count_utf16_units_after_kanji() {
    let mut client = Client::start();
    let text = DUPLICATE_NAME.replace("piece S  \"Gold\"", "piece S  \"Gold\" kanji \"銀将\" valu 3");
    let published = client.open(&text);
    let diagnostics = published["diagnostics"].as_array().unwrap();
    // The misspelt attribute after the kanji: `valu` at characters 27..31 (bytes 31..35).
    let unknown = diagnostics
        .iter()
        .find(|d| d["code"] == "koma::unknown-attribute")
        .unwrap_or_else(|| panic!("{diagnostics:?}"));
    assert_eq!(unknown["range"], range((4, 27), (4, 31)));
    client.stop();
}

#[test]
fn hover_on_a_piece_shows_its_koma_show_section() {
    let mut client = Client::start();
    client.open(&DUPLICATE_NAME.replace("piece S  \"Gold\"", "piece S  \"Silver\""));
    // `P` in the setup row `  d: 4 P`.
    let hover = client.at("textDocument/hover", 8, 7);
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("P  Pawn"), "{text}");
    assert!(text.contains("promotes to +P (Tokin)"), "{text}");
    assert!(text.contains('@'), "the move diagram: {text}");
    assert_eq!(hover["range"], range((8, 7), (8, 8)));
    client.stop();
}

#[test]
fn hover_on_a_piece_of_a_file_that_never_compiled_shows_its_declaration() {
    let mut client = Client::start();
    client.open(DUPLICATE_NAME);
    let hover = client.at("textDocument/hover", 6, 7);
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("**+P** Tokin"), "{text}");
    client.stop();
}

#[test]
fn hover_on_a_statement_keyword_shows_how_it_is_written() {
    let mut client = Client::start();
    client.open(DUPLICATE_NAME);
    let hover = client.at("textDocument/hover", 10, 3);
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("`promotion` statement: `promotion zone N"), "{text}");
    client.stop();
}

#[test]
fn definition_of_a_piece_abbreviation_is_its_declaration() {
    let mut client = Client::start();
    client.open(DUPLICATE_NAME);
    // `G` in the setup row `  e: G S K . .`.
    let location = client.at("textDocument/definition", 9, 5);
    assert_eq!(location["uri"], URI);
    assert_eq!(location["range"], range((3, 6), (3, 7)));
    // `+P` after `promotes`.
    let location = client.at("textDocument/definition", 5, 34);
    assert_eq!(location["range"], range((6, 6), (6, 8)));
    client.stop();
}

#[test]
fn references_of_a_piece_are_its_declaration_promotions_as_and_setup() {
    let mut client = Client::start();
    client.open(DUPLICATE_NAME);
    let params = |declaration: bool| {
        json!({
            "textDocument": {"uri": URI},
            "position": {"line": 3, "character": 6},
            "context": {"includeDeclaration": declaration},
        })
    };
    let references = client.request("textDocument/references", params(true));
    let ranges: Vec<&Value> = references.as_array().unwrap().iter().map(|l| &l["range"]).collect();
    // `G`: declared on line 3, `as G` on line 6, the setup row on line 9.
    assert_eq!(
        ranges,
        [&range((3, 6), (3, 7)), &range((6, 22), (6, 23)), &range((9, 5), (9, 6))]
    );
    let references = client.request("textDocument/references", params(false));
    assert_eq!(references.as_array().unwrap().len(), 2);
    client.stop();
}

#[test]
fn a_request_with_bad_parameters_is_answered_with_an_error_and_the_server_goes_on() {
    let mut client = Client::start();
    client.send(json!({"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover", "params": {"textDocument": 3}}));
    let answer = client.receive();
    assert_eq!(answer["id"], 99);
    assert_eq!(answer["error"]["code"], -32602, "InvalidParams: {answer}");
    // A document that is not open has nothing to show.
    assert_eq!(client.at("textDocument/hover", 0, 0), Value::Null);
    client.open(DUPLICATE_NAME);
    client.stop();
}

#[test]
fn exit_without_shutdown_ends_with_failure() {
    let mut client = Client::start();
    client.notify("exit", Value::Null);
    drop(client.stdin);
    let output = client.child.wait_with_output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`exit` without `shutdown`"), "{stderr}");
}

#[test]
fn completion_offers_keywords_directions_pieces_and_options() {
    let mut client = Client::start();
    client.open(&format!("option speed \"How fast\" = slow | fast\n{DUPLICATE_NAME}"));
    let items = client.at("textDocument/completion", 0, 0);
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for expected in [
        "promotion",
        "step",
        "forward-diagonal",
        "capture-only",
        "+P",
        "K",
        "speed",
    ] {
        assert!(labels.contains(&expected), "{expected} missing from {labels:?}");
    }
    client.stop();
}

#[test]
fn document_symbols_are_the_pieces_options_and_setup() {
    let mut client = Client::start();
    client.open(&format!("option speed \"How fast\" = slow | fast\n{DUPLICATE_NAME}"));
    let symbols = client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["speed", "K", "G", "S", "P", "+P", "setup"]);
    client.stop();
}

/// A directory of its own for a test's files, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("koma-lsp-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `main.var` using `lib.var`, whose Silver (its second line) has a misspelt direction.
const LIB: &str =
    "piece G  \"Gold\"  sfen g : step orthogonal forward-diagonal\npiece S  \"Silver\" sfen s : step forwrd diagonal\n";
const MAIN: &str = "variant \"Mini\"
board 5 x 5
use \"lib\"
piece K  \"King\"  sfen k royal : step all
piece P  \"Pawn\"  sfen p promotes +P : step forward
piece +P \"Tokin\" : as G
setup
  d: 4 P
  e: G S K . .
promotion zone 1
";

fn main_and_lib(dir: &TempDir) -> Client {
    std::fs::write(dir.0.join("lib.var"), LIB).unwrap();
    let main = dir.0.join("main.var");
    std::fs::write(&main, MAIN).unwrap();
    let mut client = Client::start();
    client.uri = format!("file://{}", main.display());
    client
}

#[test]
fn a_finding_in_a_used_file_is_shown_on_the_use_pointing_into_that_file() {
    let dir = TempDir::new("use-diagnostic");
    let mut client = main_and_lib(&dir);
    let published = client.open(MAIN);
    let diagnostics = published["diagnostics"].as_array().unwrap();
    let d = diagnostics
        .iter()
        .find(|d| d["code"] == "koma::unknown-direction")
        .unwrap_or_else(|| panic!("{diagnostics:?}"));
    assert_eq!(d["range"]["start"], json!({"line": 2, "character": 0}));
    let related = &d["relatedInformation"][0]["location"];
    assert!(related["uri"].as_str().unwrap().ends_with("/lib.var"), "{related}");
    // `forwrd`, second line of lib.var, characters 32..38.
    assert_eq!(related["range"], range((1, 32), (1, 38)));
    client.stop();
}

#[test]
fn an_edit_to_an_open_used_file_refreshes_the_file_using_it() {
    let dir = TempDir::new("use-open");
    let mut client = main_and_lib(&dir);
    let main_uri = client.uri.clone();
    let codes = |published: &Value| -> Vec<String> {
        let list = published["diagnostics"].as_array().unwrap();
        list.iter().map(|d| d["code"].as_str().unwrap().to_string()).collect()
    };
    assert!(codes(&client.open(MAIN)).contains(&"koma::unknown-direction".to_string()));
    // The editor opens lib.var and fixes the Silver, unsaved: main.var is compiled again
    // with the editor's text of lib.var.
    client.uri = format!("file://{}", dir.0.join("lib.var").display());
    client.open(&LIB.replace("forwrd", "forward"));
    let published = client.diagnostics();
    assert_eq!(published["uri"], main_uri.as_str());
    assert_eq!(codes(&published), Vec::<String>::new());
    client.stop();
}

#[test]
fn definition_of_a_used_piece_is_in_the_used_file() {
    let dir = TempDir::new("use-definition");
    let mut client = main_and_lib(&dir);
    client.open(MAIN);
    // `G` after `as` in main.var.
    let location = client.at("textDocument/definition", 5, 22);
    assert!(location["uri"].as_str().unwrap().ends_with("/lib.var"), "{location}");
    assert_eq!(location["range"], range((0, 6), (0, 7)));
    // The name in `use "lib"` leads to the file.
    let location = client.at("textDocument/definition", 2, 6);
    assert!(location["uri"].as_str().unwrap().ends_with("/lib.var"), "{location}");
    client.stop();
}

#[test]
fn references_of_a_used_piece_reach_into_the_used_file() {
    let dir = TempDir::new("use-references");
    let mut client = main_and_lib(&dir);
    client.open(MAIN);
    // `G` after `as` in main.var.
    let params = |uri: &str, line, character| {
        json!({
            "textDocument": {"uri": uri},
            "position": {"line": line, "character": character},
            "context": {"includeDeclaration": true},
        })
    };
    let main_uri = client.uri.clone();
    let found = client.request("textDocument/references", params(&main_uri, 5, 22));
    let mut places: Vec<(String, Value)> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let file = l["uri"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
            (file, l["range"].clone())
        })
        .collect();
    places.sort_by_key(|(file, range)| (file.clone(), range.to_string()));
    let expected = [
        ("lib.var", range((0, 6), (0, 7))),
        ("main.var", range((5, 22), (5, 23))),
        ("main.var", range((8, 5), (8, 6))),
    ];
    let expected: Vec<(String, Value)> = expected.into_iter().map(|(f, r)| (f.to_string(), r)).collect();
    assert_eq!(places, expected);
    // From the used file, with main.var open: main.var's uses of its Gold are found too.
    let lib_uri = format!("file://{}", dir.0.join("lib.var").display());
    client.uri = lib_uri.clone();
    client.open(LIB);
    let found = client.request("textDocument/references", params(&lib_uri, 0, 6));
    let uris: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris.iter().filter(|u| **u == main_uri).count(), 2, "{found}");
    assert_eq!(uris.iter().filter(|u| **u == lib_uri).count(), 1, "{found}");
    client.stop();
}

#[test]
fn definition_follows_a_chain_of_used_files() {
    let dir = TempDir::new("use-chain");
    std::fs::write(dir.0.join("base.var"), LIB).unwrap();
    std::fs::write(dir.0.join("lib.var"), "use \"base\"\n").unwrap();
    let main = dir.0.join("main.var");
    std::fs::write(&main, MAIN).unwrap();
    let mut client = Client::start();
    client.uri = format!("file://{}", main.display());
    client.open(MAIN);
    // `S` in the setup of main.var: declared in base.var, which lib.var uses.
    let location = client.at("textDocument/definition", 8, 7);
    assert!(location["uri"].as_str().unwrap().ends_with("/base.var"), "{location}");
    assert_eq!(location["range"], range((1, 6), (1, 7)));
    client.stop();
}

#[test]
fn formatting_returns_the_koma_fmt_layout_as_one_edit() {
    let mut client = Client::start();
    let careless = "variant   \"Mini\"\nboard 5x5\npiece K \"King\" royal:step all   # the King\n\n\n";
    client.open(careless);
    let params = json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}});
    let edits = client.request("textDocument/formatting", params.clone());
    let expected = koma::format::format(careless).unwrap();
    assert_eq!(
        edits,
        json!([{"range": range((0, 0), (5, 0)), "newText": expected}]),
        "the whole text, replaced"
    );
    assert!(expected.contains("royal : step all  # the King\n"), "{expected}");
    // Formatted already: no edit.
    client.change(2, &expected);
    assert_eq!(client.request("textDocument/formatting", params.clone()), json!([]));
    // A text that does not parse is left alone (its diagnostics say why).
    client.change(3, "board 5 x\n");
    assert_eq!(client.request("textDocument/formatting", params), Value::Null);
    client.stop();
}

impl Client {
    /// Writes raw bytes, as a broken or hostile client does.
    fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and returns the messages received before its response, and the
    /// response itself.
    fn request_counting(&mut self, method: &str, params: Value) -> (Vec<Value>, Value) {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut before = Vec::new();
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                return (before, message);
            }
            before.push(message);
        }
    }
}

/// A message koma cannot read (a length past its bound, not JSON, not UTF-8, bad headers)
/// is answered with JSON-RPC's error for it, `id` null, and the server reads on; it panicked
/// on `Content-Length: 18446744073709551615` and exited on the others.
#[test]
fn a_message_that_cannot_be_read_is_answered_with_an_error_and_the_server_reads_on() {
    let mut client = Client::start();
    client.open(DUPLICATE_NAME);
    let framed = |body: &[u8]| [format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes(), body].concat();
    let cases: [(&str, Vec<u8>, i64, &str); 8] = [
        (
            "huge length",
            b"Content-Length: 18446744073709551615\r\n\r\n".to_vec(),
            -32700,
            "longer than",
        ),
        ("not JSON", framed(b"{not json"), -32700, "not JSON"),
        ("not UTF-8", framed(b"{\"a\": \"\xff\xfe\"}"), -32700, "not UTF-8"),
        ("not a message", framed(b"[1, 2]"), -32600, "not a request"),
        ("not a header", b"Garbage\r\n\r\n".to_vec(), -32700, "not a header"),
        (
            "bad length",
            b"Content-Length: -1\r\n\r\n".to_vec(),
            -32700,
            "not a whole number",
        ),
        (
            "no length",
            b"Content-Type: x\r\n\r\n".to_vec(),
            -32700,
            "no Content-Length",
        ),
        (
            "long header",
            [b"X-Long: ".as_slice(), &[b'a'; 100_000], b"\r\n\r\n"].concat(),
            -32700,
            "header line is longer",
        ),
    ];
    for (case, bytes, code, words) in cases {
        if case == "huge length" {
            // Answered at once: the body is then skipped as it comes, so it is not sent here
            // but from a client of its own below.
            continue;
        }
        client.send_raw(&bytes);
        let answer = client.receive();
        assert_eq!(answer["id"], Value::Null, "{case}: {answer}");
        assert_eq!(answer["error"]["code"], json!(code), "{case}: {answer}");
        assert!(
            answer["error"]["message"].as_str().unwrap().contains(words),
            "{case}: {answer}"
        );
    }
    let symbols = client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    assert_eq!(symbols.as_array().unwrap().len(), 6, "{symbols}");
    client.stop();

    for length in ["18446744073709551615", "8000000000", "3000000000"] {
        let mut client = Client::start();
        client.send_raw(format!("Content-Length: {length}\r\n\r\n").as_bytes());
        let answer = client.receive();
        assert_eq!(answer["error"]["code"], json!(-32700), "{length}: {answer}");
        assert!(
            answer["error"]["message"].as_str().unwrap().contains(length),
            "{answer}"
        );
    }
}

/// An edit compiles the edited document and the open documents that read it, not every open
/// document that `use`s a file (20 documents using Taikyoku took 1.7 s a keystroke).
#[test]
fn an_edit_compiles_only_the_documents_that_read_the_edited_one() {
    let dir = TempDir::new("dependents");
    let mut client = main_and_lib(&dir);
    let main_uri = client.uri.clone();
    client.open(MAIN);
    let other_uri = format!("file://{}", dir.0.join("other.var").display());
    client.uri = other_uri.clone();
    let other = MAIN.replace("use \"lib\"", "use \"chu\"");
    client.open(&other);
    // An edit of other.var: only other.var is compiled.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": other_uri, "version": 2}, "contentChanges": [{"text": format!("{other}# edit\n")}]}),
    );
    let (published, _) = client.request_counting(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": other_uri}}),
    );
    let uris: Vec<&Value> = published.iter().map(|m| &m["params"]["uri"]).collect();
    assert_eq!(uris, [&json!(other_uri)]);
    // An edit of lib.var, open: lib.var and main.var, which reads it.
    let lib_uri = format!("file://{}", dir.0.join("lib.var").display());
    client.uri = lib_uri.clone();
    client.open(LIB);
    let (opened, _) = client.request_counting("textDocument/documentSymbol", json!({"textDocument": {"uri": lib_uri}}));
    assert_eq!(
        opened.len(),
        1,
        "main.var, which reads lib.var, is compiled with the editor's text: {opened:?}"
    );
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": lib_uri, "version": 2}, "contentChanges": [{"text": LIB.replace("forwrd", "forward")}]}),
    );
    let (published, _) =
        client.request_counting("textDocument/documentSymbol", json!({"textDocument": {"uri": lib_uri}}));
    let mut uris: Vec<&str> = published.iter().map(|m| m["params"]["uri"].as_str().unwrap()).collect();
    uris.sort();
    let mut expected = [lib_uri.as_str(), main_uri.as_str()];
    expected.sort();
    assert_eq!(uris, expected);
    client.stop();
}

/// Edits in quick succession (typing) are compiled once they pause, not once each.
#[test]
fn edits_in_quick_succession_are_compiled_once_they_pause() {
    let mut client = Client::start();
    client.open(DUPLICATE_NAME);
    for version in 2..=21 {
        let text = format!("{DUPLICATE_NAME}# edit {version}\n");
        let params = json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]});
        client.notify("textDocument/didChange", params);
    }
    let mut published = 0;
    loop {
        let diagnostics = client.diagnostics();
        published += 1;
        if diagnostics["version"] == 21 {
            break;
        }
    }
    assert!(published < 5, "20 edits published {published} times");
    client.stop();
}

/// A document past the 4 MiB the compiler reads is not parsed for the editor's questions
/// either: a 10 MB document took 12-56 s and 278 MB a request.
#[test]
fn a_document_past_the_size_limit_is_not_parsed_for_requests() {
    let mut client = Client::start();
    let padding = "# padding\n".repeat(500_000);
    let published = client.open(&format!("{DUPLICATE_NAME}{padding}"));
    let diagnostics = published["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert!(
        diagnostics[0]["message"].as_str().unwrap().contains("at most"),
        "{diagnostics:?}"
    );
    let symbols = client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    assert_eq!(symbols, json!([]));
    client.stop();
}
