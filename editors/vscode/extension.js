// Starts `koma lsp` for `.var` files: koma's diagnostics as you type, hovers, go to
// definition, references, formatting, completion and document symbols. Highlighting is the
// TextMate grammar in syntaxes/, which needs no server.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const command = vscode.workspace.getConfiguration("koma").get("path") || "koma";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient("koma", "koma", server, {
    documentSelector: [{ scheme: "file", language: "koma" }, { scheme: "untitled", language: "koma" }],
  });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
