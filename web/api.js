// The server's JSON API: every call answers JSON, or throws an ApiError with the server's
// message (and the rest of its answer: a variant's check report and source).

export class ApiError extends Error {
  constructor(body, status) {
    super(body.error || `the server answered ${status}`);
    this.body = body;
    this.status = status;
  }
}

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError({ error: `cannot reach the server (${e.message}): is koma serve still running?` }, 0);
  }
  const text = await response.text();
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    value = { error: text };
  }
  if (!response.ok) throw new ApiError(value, response.status);
  return value;
}

export const get = (path) => call("GET", path);
export const post = (path, body = {}) => call("POST", path, body);
