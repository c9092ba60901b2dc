//! The page of `koma serve` in a real browser: headless Chromium driven through
//! chromedriver (WebDriver, spoken over a plain local socket), clicking as a person does.
//! Each test starts its own server and browser and saves a screenshot to
//! `target/browser/NAME.png`. `.ci/run` installs Debian's `chromium` and `chromium-driver`
//! and requires them (`KOMA_REQUIRE_BROWSER`); elsewhere a machine without them passes over
//! these tests, saying so.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use support::server::Server;

mod support;
use std::time::{Duration, Instant};

/// One browser at a time: the machine may be small.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The right to drive the browser, one test at a time; `None` where chromedriver is not
/// installed, so that `cargo test` on a fresh machine passes over the browser (saying so),
/// unless `KOMA_REQUIRE_BROWSER` is set: `.ci/run` sets it, and there a missing browser fails.
fn one_browser_at_a_time() -> Option<MutexGuard<'static, ()>> {
    let installed = Command::new("chromedriver")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !installed {
        let why =
            "chromedriver is not installed (Debian: apt-get install chromium chromium-driver; .ci/run installs them)";
        assert!(std::env::var_os("KOMA_REQUIRE_BROWSER").is_none(), "{why}");
        eprintln!("the browser is passed over: {why}");
        return None;
    }
    Some(ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner()))
}

const WAIT: Duration = Duration::from_secs(20);

// ---------------------------------------------------------------------------------------
// The server and the browser

/// A child process killed when dropped.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A WebDriver session in headless Chromium, ended when dropped.
struct Browser {
    port: u16,
    session: String,
    _driver: Process,
    _profile: TempDir,
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The screen the page is shown on: a desktop's window of exactly this many pixels, or a
/// phone (Chromium's mobile emulation: touch, a phone's browser, twice the pixels).
#[derive(Clone, Copy)]
enum Screen {
    Desktop(u32, u32),
    Phone(u32, u32),
}

impl Browser {
    fn start() -> Browser {
        Browser::on(Screen::Desktop(1400, 1000))
    }

    fn on(screen: Screen) -> Browser {
        let port = free_port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver runs (Debian: apt-get install chromium chromium-driver; .ci/run installs them)");
        let driver = Process(driver);
        let profile = std::env::temp_dir().join(format!("koma-browser-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&profile).unwrap();
        let deadline = Instant::now() + WAIT;
        while http(port, "GET", "/status", None).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1400,1000",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([format!("--user-data-dir={}", profile.display())])
        .collect::<Vec<_>>();
        let mut options = json!({ "binary": "/usr/bin/chromium", "args": args });
        if let Screen::Phone(width, height) = screen {
            options["mobileEmulation"] = json!({
                "deviceMetrics": { "width": width, "height": height, "pixelRatio": 2, "touch": true },
                "userAgent": "Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36"
            });
        }
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options
        }}});
        let answer = http(port, "POST", "/session", Some(&capabilities)).expect("a browser session");
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_string();
        let browser = Browser {
            port,
            session,
            _driver: driver,
            _profile: TempDir(profile),
        };
        if let Screen::Desktop(width, height) = screen {
            // The page's own size, whatever the window's frame takes.
            let metrics = json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false });
            let override_metrics = json!({ "cmd": "Emulation.setDeviceMetricsOverride", "params": metrics });
            browser.command("POST", "/goog/cdp/execute", Some(&override_metrics));
        }
        browser
    }

    fn command(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let answer = http(self.port, method, &path, body).unwrap_or_else(|e| panic!("{path}: {e}"));
        if answer["value"].get("error").is_some() {
            panic!("{path}: {}", answer["value"]);
        }
        answer["value"].clone()
    }

    fn open(&self, url: &str) {
        self.command("POST", "/url", Some(&json!({ "url": url })));
    }

    fn run(&self, script: &str) -> Value {
        self.command("POST", "/execute/sync", Some(&json!({ "script": script, "args": [] })))
    }

    /// Waits until the JavaScript expression is true; fails with what `describe` says.
    fn wait_for(&self, expression: &str) {
        let deadline = Instant::now() + WAIT;
        while self.run(&format!("return !!({expression});")) != json!(true) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {expression}; the page says: {}",
                self.run("return document.getElementById('status').textContent;")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn click(&self, css: &str) {
        let found = self.command(
            "POST",
            "/element",
            Some(&json!({ "using": "css selector", "value": css })),
        );
        let id = found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string();
        self.command("POST", &format!("/element/{id}/click"), Some(&json!({})));
    }

    /// Clicks a square of the board.
    fn square(&self, square: &str) {
        self.click(&format!("g[data-square='{square}']"));
    }

    fn screenshot(&self, name: &str) {
        let encoded = self.command("GET", "/screenshot", None);
        let png = base64_decode(encoded.as_str().unwrap());
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../browser");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(self.port, "DELETE", &format!("/session/{}", self.session), None);
    }
}

/// One HTTP/1.1 request to chromedriver on this machine; its JSON answer.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(stream);
    let (mut length, mut chunked) = (None, false);
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).map_err(|e| e.to_string())?;
        let line = line.trim_end().to_ascii_lowercase();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("content-length:") {
            length = value.trim().parse::<usize>().ok();
        }
        chunked |= line == "transfer-encoding: chunked";
    }
    let content = if chunked {
        read_chunks(&mut reader)?
    } else {
        let mut content = vec![0; length.ok_or("an answer without Content-Length")?];
        reader.read_exact(&mut content).map_err(|e| e.to_string())?;
        content
    };
    serde_json::from_slice(&content).map_err(|e| format!("{e}: {}", String::from_utf8_lossy(&content)))
}

fn read_chunks(reader: &mut impl BufRead) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size).map_err(|e| e.to_string())?;
        let size = usize::from_str_radix(size.trim(), 16).map_err(|e| e.to_string())?;
        let mut chunk = vec![0; size + 2];
        reader.read_exact(&mut chunk).map_err(|e| e.to_string())?;
        if size == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&chunk[..size]);
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut bits, mut count) = (0u32, 0);
    for c in text.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=') {
        let value = ALPHABET.iter().position(|&a| a == c).expect("base64") as u32;
        bits = (bits << 6) | value;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// The page

/// The page, open on a new game between two people of `variant` from `sfen`.
fn page_with(variant: &str, sfen: &str) -> (Browser, Server) {
    page_on(Screen::Desktop(1400, 1000), variant, Some(sfen))
}

/// The page on `screen`, open on a new game between two people of `variant` (chosen in the
/// menu, which starts it), from `sfen` when given.
fn page_on(screen: Screen, variant: &str, sfen: Option<&str>) -> (Browser, Server) {
    let server = Server::start();
    let address = server.url();
    let browser = Browser::on(screen);
    browser.open(&address);
    browser.wait_for("document.body.dataset.game === '1' && document.querySelector('g[data-square]')");
    browser.run(&format!(
        "document.getElementById('white').value = 'human'; \
         const v = document.getElementById('variant'); v.value = '{variant}'; \
         v.dispatchEvent(new Event('change'));"
    ));
    browser.wait_for(&format!(
        "document.body.dataset.game === '2' && document.querySelector('#pieces details[data-abbrev]') \
         && document.getElementById('variant').value === '{variant}'"
    ));
    if let Some(sfen) = sfen {
        browser.run(&format!(
            "document.getElementById('sfen').value = '{sfen}'; document.getElementById('sfen-set').click();"
        ));
        browser.wait_for(&format!("document.body.dataset.sfen === '{sfen}'"));
    }
    (browser, server)
}

/// The moves played, as the page lists them.
fn moves_listed(browser: &Browser) -> Value {
    browser.run("return [...document.querySelectorAll('#moves .move')].map(li => li.textContent);")
}

fn piece_on(browser: &Browser, square: &str) -> Value {
    browser.run(&format!(
        "const p = document.querySelector(\"g[data-square='{square}'] .piece\"); \
         return p ? [p.classList.contains('white') ? 'White' : 'Black', p.textContent] : null;"
    ))
}

fn marked(browser: &Browser, class: &str) -> usize {
    browser
        .run(&format!(
            "return document.querySelectorAll('rect.cell.{class}').length;"
        ))
        .as_u64()
        .unwrap() as usize
}

#[test]
fn a_shogi_drop_from_the_hand() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_with("shogi", "4k4/9/9/9/9/9/9/9/4K4 b P 1");
    browser.run("document.getElementById('kanji').click();");
    browser.click("#hand-bottom button[data-abbrev='P']");
    // 9 files × 8 ranks, less the King's square: where the server says a Pawn may drop.
    browser.wait_for("document.querySelectorAll('rect.cell.target').length === 71");
    assert_eq!(marked(&browser, "target"), 71);
    browser.screenshot("shogi-drop");
    browser.square("5e");
    browser.wait_for("document.querySelectorAll('#moves .move').length === 1");
    assert_eq!(moves_listed(&browser), json!(["P*5e"]));
    assert_eq!(piece_on(&browser, "5e"), json!(["Black", "P"]));
    assert_eq!(
        browser.run("return document.querySelectorAll('#hand-bottom button').length;"),
        json!(0)
    );
}

/// Chu: a Lion before two Golds, White's King far away.
const CHU_LION: &str = "k11/12/12/7g4/6gg4/6N5/12/12/12/12/12/11K b - 1";

#[test]
fn a_chu_lion_takes_by_igui_then_twice_in_one_move() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_with("chu", CHU_LION);
    // Igui: the Gold on 6e is taken from 6f, and the Lion stays.
    browser.square("6f");
    browser.wait_for("document.querySelector(\"g[data-square='6e'] rect.capture\")");
    browser.square("6e");
    browser.wait_for("document.querySelector(\"g[data-square='6f'] rect.back\")");
    browser.screenshot("chu-lion-igui");
    browser.square("6f");
    browser.wait_for("document.querySelectorAll('#moves .move').length === 1");
    assert_eq!(piece_on(&browser, "6e"), Value::Null);
    assert_eq!(piece_on(&browser, "6f").get(0), Some(&json!("Black")));
    // White's King steps aside.
    browser.square("12a");
    browser.square("12b");
    browser.wait_for("document.querySelectorAll('#moves .move').length === 2");
    // The double capture: 5e, then 5d.
    browser.square("6f");
    browser.square("5e");
    browser.wait_for("document.querySelector(\"g[data-square='5d'] rect.capture\")");
    browser.screenshot("chu-lion-double");
    browser.square("5d");
    browser.wait_for("document.querySelectorAll('#moves .move').length === 3");
    assert_eq!(piece_on(&browser, "5e"), Value::Null);
    assert_eq!(piece_on(&browser, "5d").get(0), Some(&json!("Black")));
    let listed = moves_listed(&browser);
    let moves: Vec<&str> = listed.as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(moves[0].contains("6e") && moves[0].starts_with("Ln"), "{moves:?}");
    assert!(moves[2].contains("5e") && moves[2].contains("5d"), "{moves:?}");
    assert_eq!(
        browser.run("return document.querySelectorAll('g.square .piece').length;"),
        json!(3)
    );
}

/// A move that takes pieces besides its destination says what in the move list, as the
/// terminal does: the Lion's double capture takes the Gold on 5e on its way to 5d.
#[test]
fn the_move_list_says_what_a_lion_double_capture_took() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_with("chu", CHU_LION);
    browser.square("6f");
    browser.square("5e");
    browser.wait_for("document.querySelector(\"g[data-square='5d'] rect.capture\")");
    browser.square("5d");
    browser.wait_for("document.querySelectorAll('#moves .move').length === 1");
    let taken = browser.run("return [...document.querySelectorAll('#moves .taken')].map(t => t.textContent);");
    let listed = moves_listed(&browser);
    let played = listed[0].as_str().expect("a move listed");
    assert_eq!(
        taken,
        json!([format!("{played}: taking 2 pieces: White's G-5d, G-5e")]),
        "{listed}"
    );
    browser.screenshot("chu-move-list-taken");
}

#[test]
fn an_optional_promotion_is_the_players_choice() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_with("shogi", "4k4/9/9/2P6/9/9/9/9/4K4 b - 1");
    browser.square("7d");
    browser.square("7c");
    browser.wait_for("!document.getElementById('choice').hidden");
    assert_eq!(
        browser.run("return document.querySelectorAll('#choice button[data-usi]').length;"),
        json!(2)
    );
    browser.screenshot("shogi-promotion");
    browser.click("#choice button[data-usi='7d7c+']");
    browser.wait_for("document.querySelectorAll('#moves .move').length === 1");
    assert_eq!(
        browser.run("return !!document.querySelector(\"g[data-square='7c'] text.promoted\");"),
        json!(true)
    );
}

#[test]
fn a_broken_variant_file_shows_its_diagnostic_on_its_text() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let server = Server::start();
    let address = server.url();
    let _server = server;
    let browser = Browser::start();
    browser.open(&address);
    browser.wait_for("document.querySelector('g[data-square]')");
    let text = "variant \"Broken\"\nboard 5 x 5\npiece K \"King\" sfen k royal : step all\n\
                piece Ln \"Lion\" sfen n : lyon\nsetup\n  e: . Ln K . .\n";
    browser.run(&format!(
        "document.getElementById('variant-file').open = true; document.getElementById('var-text').value = {};",
        json!(text)
    ));
    browser.click("#var-check");
    browser.wait_for("document.querySelector('.diagnostic mark')");
    let shown = browser.run(
        "const d = document.querySelector('.diagnostic'); \
         return [d.querySelector('.message').textContent, d.querySelector('mark').textContent];",
    );
    assert!(
        shown[0].as_str().unwrap().contains("`lyon` is not a kind of move"),
        "{shown}"
    );
    assert_eq!(shown[1], "lyon");
    browser.run("document.getElementById('variant-file').scrollIntoView();");
    browser.screenshot("broken-variant");
}

#[test]
fn koma_answers_a_move_and_the_pieces_have_their_diagrams() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let server = Server::start();
    let address = server.url();
    let _server = server;
    let browser = Browser::start();
    browser.open(&address);
    // The page opens on Shogi, you against koma; koma thinks for 0.2 s.
    browser.wait_for("document.body.dataset.game === '1'");
    browser.run("document.getElementById('seconds').value = '0.2';");
    browser.square("7g");
    browser.wait_for("document.querySelector(\"g[data-square='7f'] rect.target\")");
    browser.square("7f");
    browser.wait_for("document.querySelectorAll('#moves .move').length === 2");
    assert_eq!(moves_listed(&browser)[0], "P-7f");
    assert!(
        browser
            .run("return document.getElementById('status').textContent;")
            .as_str()
            .unwrap()
            .starts_with("koma plays"),
    );
    browser.click("#help > summary");
    browser.wait_for("document.querySelectorAll('#pieces details svg').length === 14");
    browser.click("#pieces details[data-abbrev='N'] > summary");
    browser.run("document.getElementById('help').scrollIntoView();");
    browser.screenshot("koma-reply-and-help");
}

/// The size of the board's squares in pixels, and whether the whole board is in view
/// (nothing of it scrolled out of its box, nor of the window).
fn board_fit(browser: &Browser) -> (f64, bool) {
    let answer = browser.run(
        "const b = document.getElementById('board'); const r = b.getBoundingClientRect(); \
         const cell = document.querySelector('g[data-square] rect').getBoundingClientRect().width; \
         return [cell, b.scrollWidth <= b.clientWidth + 1 && b.scrollHeight <= b.clientHeight + 1 \
                 && r.bottom <= innerHeight && r.right <= innerWidth];",
    );
    (answer[0].as_f64().unwrap(), answer[1] == json!(true))
}

#[test]
fn tai_and_taikyoku_fill_a_full_hd_screen_with_readable_squares() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    for (variant, squares) in [("tai", 625), ("taikyoku", 1296)] {
        let (browser, _server) = page_on(Screen::Desktop(1920, 1080), variant, None);
        assert_eq!(
            browser.run("return document.querySelectorAll('g[data-square]').length;"),
            json!(squares)
        );
        let (cell, whole) = board_fit(&browser);
        // 26 px a square: a three-letter abbreviation or two lines of kanji can be read.
        assert!(
            cell >= 26.0 && whole,
            "{variant}: squares of {cell} px, whole board in view: {whole}"
        );
        browser.screenshot(&format!("{variant}-1920x1080"));
    }
}

#[test]
fn a_large_board_zooms_and_scrolls_with_its_coordinates_in_view() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_on(Screen::Desktop(1366, 768), "taikyoku", None);
    let (before, _) = board_fit(&browser);
    browser.click("#zoom-in");
    browser.click("#zoom-in");
    let (after, whole) = board_fit(&browser);
    assert!(after > before * 1.5 && !whole, "{before} px, then {after} px");
    // Scrolled to the far corner, the file numbers and rank letters are still in view.
    browser.run("const b = document.getElementById('board'); b.scrollTop = b.scrollHeight; b.scrollLeft = 0;");
    let in_view = browser.run(
        "const b = document.getElementById('board').getBoundingClientRect(); \
         const f = document.querySelector('.coordinates.files').getBoundingClientRect(); \
         const r = document.querySelector('.coordinates.ranks').getBoundingClientRect(); \
         return [Math.abs(f.top - b.top) < 2, r.right <= b.right + 1 && r.left >= b.left];",
    );
    assert_eq!(in_view, json!([true, true]));
    browser.screenshot("taikyoku-zoomed-1366x768");
}

/// Every shipped variant at both screen sizes, for a person to look at
/// (`target/browser/every-*.png`); each board is checked to fit or to scroll, not to spill.
#[test]
#[ignore = "a screenshot of every variant at two sizes: about a minute"]
fn every_variant_at_two_screen_sizes() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    for (width, height) in [(1920, 1080), (1366, 768)] {
        let (browser, _server) = page_on(Screen::Desktop(width, height), "shogi", None);
        let listed = browser.run("return [...document.getElementById('variant').options].map(o => o.value);");
        let names: Vec<&str> = listed.as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
        assert!(names.len() >= 20, "{listed}");
        for (index, name) in names.iter().enumerate() {
            browser.run(&format!(
                "const v = document.getElementById('variant'); v.value = '{name}'; v.dispatchEvent(new Event('change'));"
            ));
            browser.wait_for(&format!("document.body.dataset.game === '{}'", index + 3));
            let overflow = browser.run("return document.documentElement.scrollWidth <= innerWidth;");
            assert_eq!(overflow, json!(true), "{name} at {width}x{height} spills sideways");
            browser.screenshot(&format!("every-{name}-{width}x{height}"));
        }
    }
}

/// Moves the mouse over an element (WebDriver actions), as a person hovering does.
fn hover(browser: &Browser, css: &str) {
    let found = browser.command(
        "POST",
        "/element",
        Some(&json!({ "using": "css selector", "value": css })),
    );
    let element = found.clone();
    let actions = json!({ "actions": [{ "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
        "actions": [{ "type": "pointerMove", "duration": 0, "origin": element, "x": 0, "y": 0 }] }] });
    browser.command("POST", "/actions", Some(&actions));
}

#[test]
fn hovering_a_piece_names_it_and_shows_its_moves() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_on(Screen::Desktop(1400, 1000), "chu", None);
    hover(&browser, "g[data-square='7j'] .piece");
    browser.wait_for("!document.getElementById('piece-card').hidden");
    let card = browser.run("const c = document.getElementById('piece-card'); return [c.querySelector('.name').textContent, !!c.querySelector('svg')];");
    assert_eq!(card, json!(["Lion 獅子 (Ln), Black's", true]));
    browser.screenshot("chu-hover-lion");
    // The opponent's piece, clicked: the piece help opens at it.
    browser.square("6a");
    browser.wait_for("document.getElementById('help').open");
    let opened =
        browser.run("return [...document.querySelectorAll('#pieces details[open]')].map(d => d.dataset.abbrev);");
    assert_eq!(opened, json!(["K"]));
    // The help is searched by name, kanji or abbreviation.
    browser.run(
        "const s = document.getElementById('piece-search'); s.value = '鳳凰'; s.dispatchEvent(new Event('input'));",
    );
    let shown = browser
        .run("return [...document.querySelectorAll('#pieces details:not([hidden])')].map(d => d.dataset.abbrev);");
    assert_eq!(shown, json!(["Ph"]));
}

#[test]
fn a_three_character_name_is_written_on_two_lines_inside_its_piece() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_on(Screen::Desktop(1920, 1080), "taikyoku", None);
    // Taikyoku's Right Mountain Eagles, 右山鷲: 右 above 山鷲, both lines within the piece's
    // width (a line's box is taller than its characters: its middle is within the piece).
    let fits = browser.run(
        "const pieces = [...document.querySelectorAll('g.square .piece')].filter(p => p.textContent === '右山鷲'); \
         return pieces.map(p => { const body = p.querySelector('polygon').getBoundingClientRect(); \
           const lines = [...p.querySelectorAll('text')]; \
           return [lines.map(t => t.textContent), lines.every(t => { const r = t.getBoundingClientRect(); \
             const middle = (r.top + r.bottom) / 2; \
             return r.left >= body.left - 0.5 && r.right <= body.right + 0.5 && middle > body.top && middle < body.bottom; })]; });",
    );
    assert_eq!(fits, json!([[["右", "山鷲"], true], [["右", "山鷲"], true]]));
}

#[test]
fn the_page_says_when_a_variant_has_no_kanji() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_on(Screen::Desktop(1400, 1000), "shogi", None);
    assert_eq!(
        browser.run("return document.getElementById('kanji-note').textContent;"),
        json!("")
    );
    // A variant file without kanji, pasted.
    let text = "variant \"Plain\"\nboard 3 x 3\npiece K \"King\" sfen k royal : step all\n\
                piece G \"Gold\" sfen g : step orthogonal forward-diagonal\nsetup\n  a: . K .\n  c: G . .\n";
    browser.run(&format!(
        "document.getElementById('variant-file').open = true; document.getElementById('var-text').value = {};",
        json!(text)
    ));
    browser.click("#var-check");
    browser.wait_for("document.getElementById('status').textContent.includes('is loaded')");
    browser.click("#start");
    browser.wait_for("document.getElementById('kanji-note').textContent !== ''");
    assert_eq!(
        browser.run(
            "return [document.getElementById('kanji-note').textContent, document.getElementById('kanji').disabled];"
        ),
        json!([
            "Plain's file gives no kanji: the pieces show their abbreviations.",
            true
        ])
    );
}

/// Taps an element with a finger (WebDriver touch actions).
fn tap(browser: &Browser, css: &str) {
    touch(browser, css, 0);
}

/// Touches an element with a finger for `hold` milliseconds.
fn touch(browser: &Browser, css: &str, hold: u64) {
    let found = browser.command(
        "POST",
        "/element",
        Some(&json!({ "using": "css selector", "value": css })),
    );
    let element = found.clone();
    let actions = json!({ "actions": [{ "type": "pointer", "id": "finger", "parameters": { "pointerType": "touch" },
        "actions": [
            { "type": "pointerMove", "duration": 0, "origin": element, "x": 0, "y": 0 },
            { "type": "pointerDown", "button": 0 },
            { "type": "pause", "duration": hold },
            { "type": "pointerUp", "button": 0 }
        ] }] });
    browser.command("POST", "/actions", Some(&actions));
}

#[test]
fn on_a_phone_the_page_fits_360_pixels_and_a_tap_moves() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_on(Screen::Phone(360, 740), "shogi", Some("4k4/9/9/9/9/9/9/2P6/4K4 b G 1"));
    let widths = browser.run(
        "const w = (id) => document.getElementById(id).getBoundingClientRect().right; \
         return [innerWidth, document.documentElement.scrollWidth, w('board'), w('hand-bottom'), w('controls')];",
    );
    assert_eq!(widths[0], json!(360));
    for (index, right) in widths.as_array().unwrap().iter().enumerate().skip(1) {
        assert!(
            right.as_f64().unwrap() <= 360.0,
            "part {index} ends at {right}: {widths}"
        );
    }
    let (cell, whole) = board_fit(&browser);
    assert!(cell >= 30.0 && whole, "squares of {cell} px; whole board: {whole}");
    tap(&browser, "g[data-square='7h'] .piece");
    browser.wait_for("document.querySelector(\"g[data-square='7g'] rect.target\")");
    tap(&browser, "g[data-square='7g']");
    browser.wait_for("document.querySelectorAll('#moves .move').length === 1");
    assert_eq!(moves_listed(&browser), json!(["P-7g"]));
    // A long press on a piece names it, and is not a click.
    touch(&browser, "g[data-square='5a'] .piece", 800);
    browser.wait_for("!document.getElementById('piece-card').hidden");
    assert_eq!(
        browser.run("return document.querySelector('#piece-card .name').textContent;"),
        json!("King 王将 (K), White's")
    );
    assert_eq!(marked(&browser, "selected"), 0);
    browser.run("document.getElementById('piece-card').hidden = true;");
    browser.screenshot("phone-360");
}

/// Chu: a Lion on 6f with two Golds before it; it reaches the 24 squares around it within
/// two, and takes on 6e or 5e as a first step.
#[test]
fn a_lion_lights_every_square_it_reaches_and_moves_two_squares_in_one_click() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_with("chu", CHU_LION);
    browser.square("6f");
    browser.wait_for("document.querySelector(\"g[data-square='6f'] rect.selected\")");
    let ends = marked(&browser, "target") + marked(&browser, "capture");
    assert_eq!(ends, 24);
    let steps = browser
        .run("return [...document.querySelectorAll('rect.cell.step')].map(r => r.parentNode.dataset.square).sort();");
    assert_eq!(steps, json!(["5e", "6e"]));
    browser.screenshot("chu-lion-reach");
    // Two squares away, one click: there is only one way there.
    browser.square("4h");
    browser.wait_for("document.querySelectorAll('#moves .move').length === 1");
    assert_eq!(moves_listed(&browser), json!(["Ln-4h"]));
    assert_eq!(piece_on(&browser, "4h").get(0), Some(&json!("Black")));
}

#[test]
fn the_board_follows_the_variant_menu() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_on(Screen::Desktop(1400, 1000), "shogi", None);
    assert_eq!(
        browser.run("return document.querySelectorAll('g[data-square]').length;"),
        json!(81)
    );
    browser.run("const v = document.getElementById('variant'); v.value = 'chu'; v.dispatchEvent(new Event('change'));");
    browser.wait_for("document.querySelectorAll('g[data-square]').length === 144");
    // The pieces' list is drawn after the board: on a loaded machine, a moment later.
    browser.wait_for("document.querySelectorAll('#pieces details').length > 20");
}

#[test]
fn a_shogi_game_shows_pairs_of_moves_the_last_move_a_stand_and_the_kings_names() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_on(Screen::Desktop(1400, 1000), "shogi", None);
    for (played, (from, to)) in [("7g", "7f"), ("3c", "3d"), ("8h", "2b")].into_iter().enumerate() {
        browser.square(from);
        browser.wait_for(&format!(
            "document.querySelector(\"g[data-square='{to}'] rect.target, g[data-square='{to}'] rect.capture\")"
        ));
        browser.square(to);
        if to == "2b" {
            // The Bishop may promote there: it does not.
            browser.wait_for("!document.getElementById('choice').hidden");
            browser.click("#choice button[data-usi='8h2b']");
        }
        browser.wait_for(&format!(
            "document.querySelectorAll('#moves .move').length === {}",
            played + 1
        ));
    }
    let pairs = browser.run("return [...document.querySelectorAll('#moves li')].map(li => li.textContent.trim());");
    assert!(pairs[0].as_str().unwrap().starts_with("P-7f P-3d"), "{pairs}");
    assert_eq!(pairs.as_array().unwrap().len(), 2);
    // The last move's squares stand out; the Bishop taken is a piece on Black's stand.
    assert_eq!(marked(&browser, "last"), 2);
    assert_eq!(
        browser.run("return !!document.querySelector(\"#hand-bottom button[data-abbrev='B'] svg .piece\");"),
        json!(true)
    );
    // Black's King is 玉将, White's (who moves second) 王将.
    assert_eq!(piece_on(&browser, "5i"), json!(["Black", "玉将"]));
    assert_eq!(piece_on(&browser, "5a"), json!(["White", "王将"]));
    browser.screenshot("shogi-pairs-stand");
}

#[test]
fn the_promotion_question_is_asked_beside_the_square() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_with("shogi", "4k4/9/9/2P6/9/9/9/9/4K4 b - 1");
    browser.square("7d");
    browser.square("7c");
    browser.wait_for("!document.getElementById('choice').hidden");
    let distance = browser.run(
        "const c = document.getElementById('choice').getBoundingClientRect(); \
         const s = document.querySelector(\"g[data-square='7c'] rect\").getBoundingClientRect(); \
         return Math.hypot(c.left - s.right, c.top - s.top);",
    );
    assert!(distance.as_f64().unwrap() < 60.0, "{distance}");
}

/// Kyoto's pieces have two faces, neither promoted: the Tokin and the Gold of the setup
/// show as T and G, not +T and +G (as the terminal and `koma show` show them).
#[test]
fn kyoto_pieces_show_the_face_they_show() {
    let Some(_one) = one_browser_at_a_time() else {
        return;
    };
    let (browser, _server) = page_on(Screen::Desktop(1400, 1000), "kyoto", None);
    browser.run("document.getElementById('kanji').click();");
    assert_eq!(piece_on(&browser, "5e"), json!(["Black", "T"]));
    assert_eq!(piece_on(&browser, "2e"), json!(["Black", "G"]));
}
