// Camera mode of the companion page: the tracker's state in one line, its questions (a prompt's options,
// a desync's facts and fixes) to tap, and — folded away on a phone — the annotated camera picture
// (MJPEG) and learning the user's box at setup (enrollment). Facts the user overruled by answering a
// desync are listed, each with a button to have the camera looked at again there
// (POST /api/tracker/recheck). Shown only in camera mode (GET /api/tracker says enabled: true; without
// a camera it says enabled: false, never a 404); one SSE stream (/api/tracker/events) keeps it current,
// and each status is passed on to the shell and the game's module as the `companion:camera` event
// (the module then asks only what the camera cannot read).
// Texts and language come from the shell (window.companion; a paired browser carries the pairing cookie): what the tracker says is
// said in the reader's language (shell.trackerText). The panel sits at the top of the game module's
// [data-camera-slot] element (else at the top of the game view) and follows the module when the shell
// mounts another one.
"use strict";
(() => {
  const h = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const C = () => window.companion;
  const t = (key) => (C() ? C().t(key) : key);
  const KEY = "companion-camera-open";
  const CAM_ICON = '<svg viewBox="0 0 12 10" width="16" height="13" role="img" aria-label="camera"><rect x=".5" y="2" width="11" height="7.5" rx="1.2" fill="#555"/><rect x="3.5" y=".6" width="4" height="2" rx=".5" fill="#555"/><circle cx="6" cy="5.7" r="2.3" fill="#ddd"/></svg>';
  let box = null;
  let last = null; // the newest tracker status
  let answerNote = null; // {ok, text} of the last answer, kept across re-renders
  let enrollError = ""; // the last enrollment failure, one line
  let enrolling = false;
  let open = null; // the picture and details shown (remembered; folded by default on a phone)

  const said = (x) => (C() && C().trackerText ? C().trackerText(x, last && last.names) : (x && (x.message || x.reason)) || "");
  const label = (o) => (C() && C().optionLabel ? C().optionLabel(o) : o.label);

  async function post(url, body) {
    const headers = { "Content-Type": "application/json" }; // a paired browser carries the pairing cookie
    const r = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) }).catch(() => null);
    if (!r) return { ok: false, data: null };
    return { ok: r.ok, status: r.status, data: await r.json().catch(() => null) };
  }
  const errLine = (data, fallback) => (data && data.error && data.error.message) || t(fallback);

  async function answer(id, option, opt) {
    const r = await post("/api/tracker/answer", { id, option });
    answerNote = r.ok
      ? { ok: true, text: `${t("camEntered")}: ${opt && (opt.moves.length || opt.back) ? label(opt) : t("camDismissed")}` }
      : { ok: false, text: errLine(r.data, "camRefused") };
    render(last);
  }

  async function recheck(f) {
    const r = await post("/api/tracker/recheck", { key: f.key });
    answerNote = r.ok ? { ok: true, text: t("camRechecked") } : { ok: false, text: errLine(r.data, "camRefused") };
    render(last);
  }

  async function enroll() {
    if (enrolling) return;
    enrolling = true;
    enrollError = "";
    render(last);
    const r = await post("/api/camera/enroll", {});
    enrolling = false;
    if (r.ok && r.data) {
      if (last) last = { ...last, enrollment: r.data };
    } else {
      enrollError = errLine(r.data, "enrollFailed");
    }
    render(last);
  }

  function options(id, opts, cls) {
    return `<div class="cam-options">${opts.map((o, i) =>
      `<button class="chip ${cls}" data-testid="cam-option" data-id="${id}" data-option="${i}">${h(label(o))}</button>`).join("")}</div>`;
  }

  function list(items, testid) {
    return `<ul class="cam-list" data-testid="${testid}">${items.map((x) => `<li>${h(x)}</li>`).join("")}</ul>`;
  }

  function enrollPanel(e) {
    if (!e) return "";
    const state = e.state || "needed";
    let html = `<div class="cam-enroll cam-enroll-${h(state)}" data-testid="cam-enroll" data-state="${h(state)}">`;
    if (state === "enrolled") {
      html += `<p><b>${h(t("enrollDone"))}</b> ${h(e.message)}</p>`;
      if (e.learned && e.learned.length) html += `<p>${h(t("enrollLearned"))}:</p>${list(e.learned, "cam-learned")}`;
      if (e.missing && e.missing.length) html += `<p>${h(t("enrollMissing"))}:</p>${list(e.missing, "cam-missing")}`;
      if (e.path) html += `<p class="cam-source">${h(t("enrollKept"))} ${h(e.path)}</p>`;
    } else {
      html += `<p><b>${h(t("enrollTitle"))}:</b> ${h(t("enrollHow"))}</p>`;
      if (state === "failed") html += `<p class="cam-err"><b>${h(t("enrollFailed"))}:</b> ${h(e.message)}</p>`;
      else if (e.message) html += `<p class="cam-source">${h(e.message)}</p>`;
    }
    const text = enrolling ? t("enrollBusy") : state === "needed" ? t("enrollBtn") : t("enrollAgain");
    html += `<button class="chip cam-enroll-btn${state === "needed" ? " on" : ""}" data-testid="cam-enroll-btn" data-cam-enroll="1"${enrolling ? " disabled" : ""}>${h(text)}</button>`;
    if (enrollError) html += `<p class="cam-err" data-testid="cam-enroll-err">${h(enrollError)}</p>`;
    return html + "</div>";
  }

  function render(st) {
    if (!box || !st) return;
    const kind = st.kind || "idle";
    const title = t("cam_" + kind);
    let msg = said(st);
    // never the same words twice: not the title again, not the question the prompt below asks
    if (msg.toLowerCase() === title.toLowerCase() || (st.prompt && msg === said(st.prompt))) msg = "";
    if (open === null) open = localStorage.getItem(KEY) !== null ? localStorage.getItem(KEY) === "1" : window.innerWidth >= 700;
    const needs = st.enrollment && st.enrollment.state !== "enrolled";
    const shown = open || needs;
    let html = `<div class="cam-head"><h2>${h(t("camTitle"))}</h2>
      <div class="cam-state cam-${h(kind)}" data-testid="cam-state" data-kind="${h(kind)}"><b>${h(title)}</b>${msg ? ` <span data-testid="cam-message">${h(msg)}</span>` : ""}</div>
      <button class="chip cam-toggle" data-testid="cam-toggle" aria-expanded="${shown}" title="${h(t("camShow"))}">${shown ? "▴" : "▾"} ${CAM_ICON}</button></div>`;
    if (st.prompt) {
      html += `<div class="cam-prompt" data-testid="cam-prompt"><p>${h(said(st.prompt))}</p>${options(st.prompt.id, st.prompt.options, "cam-pick")}</div>`;
    }
    const fact = (f) => (C() && C().factText ? C().factText(f, st.names) : f);
    if (st.desync) {
      const d = st.desync;
      html += `<div class="cam-desync" data-testid="cam-desync"><ul>${d.facts.map((f) => { const w = fact(f);
        return `<li><b>${h(w.where)}</b>: ${h(t("camSeen"))} ${h(w.seen)}, ${h(t("camExpected"))} ${h(w.expected)}</li>`; }).join("")}</ul>` +
        (d.options.length ? `<p>${h(t("camFix"))}</p>${options(d.id, d.options, "cam-fix")}` : "") + "</div>";
    }
    if (st.overruled && st.overruled.length) {
      // facts the user overruled by answering a desync: the camera keeps reading them otherwise
      html += `<div class="cam-overruled" data-testid="cam-overruled"><p>${h(t("camOverruled"))}</p><ul>${st.overruled.map((f, i) => { const w = fact(f);
        return `<li><b>${h(w.where)}</b>: ${h(t("camSeen"))} ${h(w.seen)}, ${h(t("camRecord"))} ${h(w.expected)} ` +
          `<button class="chip" data-testid="cam-recheck" data-recheck="${i}">${h(t("camRecheck"))}</button></li>`; }).join("")}</ul></div>`;
    }
    html += `<p id="camera-answer" class="${answerNote ? (answerNote.ok ? "cam-ok" : "cam-err") : ""}">${h(answerNote ? answerNote.text : "")}</p>`;
    html += `<div class="cam-body" data-testid="cam-body"${shown ? "" : " hidden"}><img id="camera-img" alt="${h(t("camTitle"))}">` +
      enrollPanel(st.enrollment) +
      `<p class="cam-source">${h(t("camSource"))}: ${h(st.source || "camera")}` +
      (st.camera ? ` · ${h(t("camFrame"))} ${st.camera.frames}` : "") + "</p></div>";
    const img = box.querySelector("#camera-img");
    const keep = img && shown ? img : null; // keep the stream open across re-renders
    box.innerHTML = html;
    if (keep) box.querySelector("#camera-img").replaceWith(keep);
    else if (shown) box.querySelector("#camera-img").src = "/camera.mjpg";
    for (const b of box.querySelectorAll("[data-option]")) {
      const group = st.prompt && Number(b.dataset.id) === st.prompt.id ? st.prompt.options : st.desync ? st.desync.options : [];
      b.onclick = () => answer(Number(b.dataset.id), Number(b.dataset.option), group[Number(b.dataset.option)]);
    }
    for (const b of box.querySelectorAll("[data-recheck]")) {
      const f = st.overruled[Number(b.dataset.recheck)];
      b.onclick = () => recheck(f);
    }
    const eb = box.querySelector("[data-cam-enroll]");
    if (eb) eb.onclick = () => enroll();
    box.querySelector("[data-testid=cam-toggle]").onclick = () => {
      open = !shown;
      localStorage.setItem(KEY, open ? "1" : "0");
      render(last);
    };
  }

  function onStatus(st) {
    last = st;
    render(st);
    document.dispatchEvent(new CustomEvent("companion:camera", { detail: st }));
  }

  async function start() {
    if (box) return;
    const r = await fetch("/api/tracker").catch(() => null);
    if (r && r.status === 401) { document.addEventListener("companion:started", start, { once: true }); return; } // pair first
    if (!r || !r.ok) return;
    const st = await r.json().catch(() => null);
    if (!st || !st.enabled) return; // not in camera mode
    box = document.createElement("section");
    box.id = "camera";
    box.className = "card camera";
    box.dataset.testid = "camera";
    place();
    onStatus(st);
    const es = new EventSource("/api/tracker/events");
    es.addEventListener("tracker", (e) => onStatus(JSON.parse(e.data)));
    document.addEventListener("companion:mounted", () => { place(); if (last) document.dispatchEvent(new CustomEvent("companion:camera", { detail: last })); });
    document.addEventListener("companion:lang", () => render(last));
  }

  function place() {
    const slot = document.querySelector("#view-game [data-camera-slot]") || document.querySelector("#view-game") || document.body;
    if (box.parentElement !== slot || slot.firstElementChild !== box) slot.prepend(box);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
