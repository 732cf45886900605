// The access token of `snapsolve serve` off the loopback (as Jupyter does): the printed link carries it as
// ?token=...; the page keeps it for this tab and this origin, takes it out of the address bar, and sends it with
// every API call (header) and WebSocket (query). On 127.0.0.1 there is none and nothing is sent.
"use strict";

const snapsolveToken = (() => {
  const KEY = "snapsolve-token";
  const params = new URLSearchParams(location.search);
  let token = params.get("token");
  try {
    if (token) {
      sessionStorage.setItem(KEY, token);
      localStorage.setItem(KEY, token);  // a new tab of the same run (the token changes each run)
    } else {
      token = sessionStorage.getItem(KEY) || localStorage.getItem(KEY);
    }
  } catch (err) { /* storage refused (private mode): the token lives only in this page */ }
  if (params.has("token")) {
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }
  return token || null;
})();

// Headers for fetch/XMLHttpRequest: the token as a bearer credential.
function authHeaders() {
  return snapsolveToken ? { Authorization: "Bearer " + snapsolveToken } : {};
}

// The ws:// or wss:// URL of an API path, with the token in its query (a browser WebSocket cannot send headers).
function socketUrl(path) {
  const query = snapsolveToken ? (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(snapsolveToken) : "";
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path + query;
}
