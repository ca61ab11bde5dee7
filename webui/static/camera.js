// Camera mode of the companion page: the annotated camera picture (MJPEG), the tracker's state,
// its prompts and desync fixes to tap, and the virtual LED strip. Shown only when the server runs in
// camera mode (GET /api/tracker answers); one SSE stream (/api/tracker/events) keeps it current.
"use strict";
(() => {
  const $ = (sel, root = document) => root.querySelector(sel);
  const h = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const WORDS = {
    watching: "watching — the table matches the game", hand: "hand in view", settling: "reading the table…",
    changing: "the table is changing…", waiting: "waiting for a clear view", prompt: "which move was it?",
    desync: "the table and the game disagree", no_table: "the table is not in view", idle: "no game yet",
  };
  let box = null;

  function token() { return localStorage.getItem("tribes-token") || ""; }

  async function answer(id, option) {
    const headers = { "Content-Type": "application/json" };
    if (token()) headers["X-Pairing-Token"] = token();
    const r = await fetch("/api/tracker/answer", { method: "POST", headers, body: JSON.stringify({ id, option }) });
    const data = await r.json().catch(() => null);
    const out = $("#camera-answer");
    out.textContent = r.ok ? `entered: ${(data.moves || []).join(" · ") || "dismissed"}` : ((data && data.error && data.error.message) || "refused");
    out.className = r.ok ? "cam-ok" : "cam-err";
  }

  function options(id, opts, cls) {
    return `<div class="cam-options">${opts.map((o, i) =>
      `<button class="chip ${cls}" data-testid="cam-option" data-id="${id}" data-option="${i}">${h(o.label)}</button>`).join("")}</div>`;
  }

  function render(st) {
    if (!box) return;
    const kind = st.kind || "idle";
    let html = `<div class="cam-state cam-${h(kind)}" data-testid="cam-state" data-kind="${h(kind)}">` +
      `<b>${h(WORDS[kind] || kind)}</b> <span>${h(st.message || "")}</span></div>`;
    if (st.prompt) {
      html += `<div class="cam-prompt" data-testid="cam-prompt"><p>${h(st.prompt.reason)}</p>${options(st.prompt.id, st.prompt.options, "cam-pick")}</div>`;
    }
    if (st.desync) {
      const d = st.desync;
      html += `<div class="cam-desync" data-testid="cam-desync"><ul>${d.facts.map((f) =>
        `<li><b>${h(f.where)}</b>: seen ${h(f.seen)}, expected ${h(f.expected)}</li>`).join("")}</ul>` +
        (d.options.length ? `<p>fix the record:</p>${options(d.id, d.options, "cam-fix")}` : "") + "</div>";
    }
    if (st.leds) {
      html += `<div class="cam-leds" data-testid="cam-leds" title="virtual LED strip">${st.leds.map((c) =>
        `<span style="background:rgb(${c[0]},${c[1]},${c[2]})"></span>`).join("")}</div>`;
    }
    html += `<p class="cam-source">observations: ${h(st.source || "camera")}` +
      (st.camera ? ` · frame ${st.camera.frames}` : "") + `</p><p id="camera-answer"></p>`;
    $("#camera-info").innerHTML = html;
    for (const b of box.querySelectorAll("[data-option]")) {
      b.onclick = () => answer(Number(b.dataset.id), Number(b.dataset.option));
    }
  }

  async function start() {
    const r = await fetch("/api/tracker").catch(() => null);
    if (!r || !r.ok) return;  // not in camera mode
    box = document.createElement("section");
    box.id = "camera";
    box.className = "card";
    box.dataset.testid = "camera";
    box.innerHTML = `<h2>Camera</h2><img id="camera-img" src="/camera.mjpg" alt="camera picture with what the tracker reads">` +
      `<div id="camera-info"></div>`;
    const col = document.querySelector("#view-game .col") || document.body;
    col.prepend(box);
    render(await r.json());
    const es = new EventSource("/api/tracker/events");
    es.addEventListener("tracker", (e) => render(JSON.parse(e.data)));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
