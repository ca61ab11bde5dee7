// The Hunters & Gatherers module of the companion page (loaded by the shell, webui/static/shell.js, which
// calls mount(shell); the contract is docs/page-shell.md). It draws the map of laid tiles schematically
// (forests, rivers, lakes, meadows, animals, gold, mushrooms, fire, cult sites, figures in the players'
// colours, huts) in an SVG one pans and zooms; the tile drawn; its legal squares on the map — tap one,
// turn the tile (only the turns that fit there), choose a figure spot or none (the refused spots with
// their clause and reason), confirm; "discard" for a tile that fits nowhere; the tile drawn at the table
// picked from the tiles still in the bag; scores with a breakdown per feature, the projected final score,
// the gold → bonus-tile chain and the tiles left. Moves go to the shell in notation (docs/carcassonne.md).
// Vanilla JS, no build step.
import { CLAUSES, STRINGS } from "./carcassonne-i18n.js";

const U = 100; // one tile in map units
const SIDES = ["N", "E", "S", "W"];
const MID = [[50, 0], [100, 50], [50, 100], [0, 50]];
const HALF = { NW: [30, 12], NE: [70, 12], EN: [88, 30], ES: [88, 70], SE: [70, 88], SW: [30, 88], WS: [12, 70], WN: [12, 30] };
const C = { meadow: "#b8d98a", forest: "#2f6b35", forestEdge: "#1e4a23", river: "#2f74b5", riverLight: "#7fb6e6",
  lake: "#4f9ad8", lakeEdge: "#245f94", border: "#00000030" };
// forest shapes for the sides they reach, drawn for k = 0 and turned k quarter turns clockwise
const CAP = [["M", 0, 0], ["L", 100, 0], ["L", 74, 26], ["L", 26, 26], ["Z"]]; // side N
const BAND = [["M", 22, 0], ["L", 78, 0], ["L", 70, 50], ["L", 78, 100], ["L", 22, 100], ["L", 30, 50], ["Z"]]; // N-S
const CORNER = [["M", 0, 0], ["L", 100, 0], ["L", 100, 100], ["Q", 62, 38, 0, 0], ["Z"]]; // N+E
const THREE = [["M", 0, 0], ["L", 100, 0], ["L", 100, 100], ["L", 0, 100], ["L", 28, 72], ["L", 28, 28], ["Z"]]; // all but W
const FULL = [["M", 0, 0], ["L", 100, 0], ["L", 100, 100], ["L", 0, 100], ["Z"]];

const turn = ([x, y], k) => { for (let i = 0; i < ((k % 4) + 4) % 4; i++) [x, y] = [100 - y, x]; return [x, y]; };
const f1 = (n) => Math.round(n * 10) / 10;
function shape(cmds, k) {
  let d = "", cur = [0, 0];
  const poly = [];
  for (const c of cmds) {
    if (c[0] === "Z") { d += "Z"; continue; }
    if (c[0] === "Q") {
      const q = turn([c[1], c[2]], k), e = turn([c[3], c[4]], k);
      d += `Q${q[0]},${q[1]} ${e[0]},${e[1]}`;
      for (let i = 1; i <= 8; i++) { const t = i / 8; poly.push([(1 - t) ** 2 * cur[0] + 2 * t * (1 - t) * q[0] + t * t * e[0], (1 - t) ** 2 * cur[1] + 2 * t * (1 - t) * q[1] + t * t * e[1]]); }
      cur = e; continue;
    }
    const p = turn([c[1], c[2]], k);
    d += `${c[0]}${p[0]},${p[1]}`; poly.push(p); cur = p;
  }
  return { d, poly };
}
function forestShape(sides) {
  const ix = sides.map((s) => SIDES.indexOf(s)).sort((a, b) => a - b);
  if (ix.length === 0) return { circle: [50, 50, 22], poly: [], anchor: [50, 50] };
  if (ix.length === 1) return { ...shape(CAP, ix[0]), anchor: turn([50, 13], ix[0]) };
  if (ix.length === 2) {
    if (ix[1] - ix[0] === 2) return { ...shape(BAND, ix[0]), anchor: [50, 50] };
    const a = (ix[0] + 1) % 4 === ix[1] ? ix[0] : ix[1];
    return { ...shape(CORNER, a), anchor: turn([70, 30], a) };
  }
  if (ix.length === 3) { const k = ([0, 1, 2, 3].find((i) => !ix.includes(i)) + 1) % 4; return { ...shape(THREE, k), anchor: turn([62, 50], k) }; }
  return { ...shape(FULL, 0), anchor: [50, 50] };
}
function distSeg(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  const t = l2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0;
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}
function inPoly(p, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i], [xj, yj] = poly[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
// how far a point is from everything drawn on the tile (negative: inside a forest or lake)
function clearance(p, obs) {
  let m = Math.min(p[0], 100 - p[0], p[1], 100 - p[1]);
  for (const poly of obs.polys) {
    let d = Infinity;
    for (let i = 0; i < poly.length; i++) d = Math.min(d, distSeg(p, poly[i], poly[(i + 1) % poly.length]));
    m = Math.min(m, inPoly(p, poly) ? -d : d);
  }
  for (const line of obs.lines) for (let i = 0; i + 1 < line.length; i++) m = Math.min(m, distSeg(p, line[i], line[i + 1]) - 5);
  for (const [x, y, r] of obs.circles) m = Math.min(m, Math.hypot(p[0] - x, p[1] - y) - r);
  return m;
}
const best = (cands, obs) => cands.reduce((a, b) => (clearance(b, obs) > clearance(a, obs) ? b : a));
const quad = (a, c, b, t) => [(1 - t) ** 2 * a[0] + 2 * t * (1 - t) * c[0] + t * t * b[0], (1 - t) ** 2 * a[1] + 2 * t * (1 - t) * c[1] + t * t * b[1]];
const lerp = (a, b, t) => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];

// Where everything of one tile (as it lies: sides already turned) is drawn, and where each spot is.
function geometry(tv) {
  const segs = tv.segments;
  const lakes = segs.filter((s) => s.kind === "lake");
  const lakeAt = (k) => (lakes.length <= 1 ? [50, 50, 15] : [50 + (k - (lakes.length - 1) / 2) * 34, 50, 12]);
  const g = { forests: [], rivers: [], lakes: [], meadows: [], anchors: {}, rows: [], volcano: null };
  const obs = { polys: [], lines: [], circles: [] };
  for (const s of segs) {
    if (s.kind === "forest") {
      const f = forestShape(s.sides || []);
      g.forests.push({ seg: s, ...f });
      if (f.poly.length) obs.polys.push(f.poly); else obs.circles.push(f.circle);
      g.anchors[s.spot] = f.anchor;
    }
  }
  let lk = 0;
  for (const s of segs) {
    if (s.kind === "lake") { const c = lakeAt(lk++); g.lakes.push({ seg: s, c }); obs.circles.push(c); g.anchors[s.spot] = [c[0], c[1]]; }
  }
  for (const s of segs) {
    if (s.kind !== "river") continue;
    const sides = (s.sides || []).map((x) => SIDES.indexOf(x));
    const A = MID[sides[0]];
    let d, line, anchor, spring = null;
    if (sides.length >= 2) {
      const B = MID[sides[1]];
      d = `M${A[0]},${A[1]} Q50,50 ${B[0]},${B[1]}`;
      line = Array.from({ length: 9 }, (_, i) => quad(A, [50, 50], B, i / 8));
      anchor = quad(A, [50, 50], B, 0.5);
      if (sides[1] - sides[0] === 2 || sides[0] - sides[1] === 2) anchor = lerp(A, B, 0.3);
    } else if (s.end === "lake") {
      const c = lakeAt(s.lake || 0);
      d = `M${A[0]},${A[1]} L${c[0]},${c[1]}`;
      line = [A, [c[0], c[1]]];
      anchor = lerp(A, [c[0], c[1]], 0.38);
    } else {
      const E = lerp(A, [50, 50], 0.64);
      d = `M${A[0]},${A[1]} L${f1(E[0])},${f1(E[1])}`;
      line = [A, E]; spring = E;
      anchor = lerp(A, [50, 50], 0.32);
    }
    g.rivers.push({ seg: s, d, spring });
    obs.lines.push(line);
    g.anchors[s.spot] = anchor;
  }
  for (const s of segs) {
    if (s.kind !== "meadow") continue;
    const pts = (s.halves || []).map((x) => HALF[x]).filter(Boolean);
    let anchor = [50, 50];
    if (pts.length) {
      const avg = [pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length];
      const mids = pts.map((p, i) => lerp(p, pts[(i + 1) % pts.length], 0.5)).filter((p) => pts.length > 1 && clearance(p, obs) > 8);
      anchor = clearance(avg, obs) >= 14 ? avg : best([avg, ...pts, ...mids], obs);
    }
    g.meadows.push({ seg: s });
    g.anchors[s.spot] = anchor;
  }
  // what a forest or meadow shows, in a row beside its spot
  const taken = { ...obs, circles: [...obs.circles, ...Object.values(g.anchors).map(([x, y]) => [x, y, 9])] };
  for (const s of segs) {
    const items = [];
    if (s.kind === "forest") { for (let i = 0; i < (s.gold || 0); i++) items.push("gold"); for (let i = 0; i < (s.mushrooms || 0); i++) items.push("mushrooms"); }
    if (s.kind === "meadow") {
      for (const [k, n] of [["deer", "deer"], ["mammoths", "mammoth"], ["tigers", "tiger"], ["aurochs", "aurochs"], ["fire", "fire"], ["cult", "cult"]]) for (let i = 0; i < (s[k] || 0); i++) items.push(n);
    }
    if (!items.length) continue;
    const a = g.anchors[s.spot];
    const w = (items.length - 1) * 12;
    const cands = [[a[0], a[1] + 14], [a[0], a[1] - 14], [a[0] + 14 + w / 2, a[1]], [a[0] - 14 - w / 2, a[1]]]
      .map(([x, y]) => [Math.max(7 + w / 2, Math.min(93 - w / 2, x)), Math.max(7, Math.min(93, y))]);
    const at = s.kind === "forest" ? best(cands, { polys: [], lines: obs.lines, circles: taken.circles.slice(obs.circles.length) }) : best(cands, taken);
    g.rows.push({ at, items });
  }
  if (tv.group === "start") g.volcano = best([[50, 80], [22, 80], [78, 80], [50, 20], [20, 50], [80, 50], [22, 22], [78, 22]], taken);
  return g;
}

// small pictures, centred on 0,0, about 12 units across
const GLYPH = {
  deer: '<circle r="4.6" fill="#9a5b2e" stroke="#5b3415" stroke-width=".8"/><path d="M-2,-4 L-4,-8.5 M-3,-6.4 L-6,-7 M2,-4 L4,-8.5 M3,-6.4 L6,-7" stroke="#5b3415" stroke-width="1.3" fill="none"/>',
  mammoth: '<circle r="5.6" fill="#7d7470" stroke="#3d3633" stroke-width=".8"/><path d="M-1,2 Q-5,7 -8,2" stroke="#fff" stroke-width="1.6" fill="none"/>',
  tiger: '<circle r="5" fill="#f08a1c" stroke="#7a3e00" stroke-width=".8"/><path d="M-3,-4.2 L-2,-1 M0,-5 L0,-1.6 M3,-4.2 L2,-1 M-2,3 L-1.3,5 M2,3 L1.3,5" stroke="#222" stroke-width="1.2"/>',
  aurochs: '<circle r="5" fill="#3d2a1e"/><path d="M-4,-3 Q-8,-7 -4.5,-9.5 M4,-3 Q8,-7 4.5,-9.5" stroke="#eee" stroke-width="1.5" fill="none"/>',
  fire: '<path d="M0,-8 Q7,-2 4.5,3.5 Q3,7 0,7 Q-3,7 -4.5,3.5 Q-7,-2 0,-8 Z" fill="#e8491d"/><path d="M0,-1.5 Q3,2 1.8,4.8 Q0,6 -1.8,4.8 Q-3,2 0,-1.5 Z" fill="#ffd23f"/>',
  cult: '<rect x="-7" y="-3" width="3.2" height="9" fill="#8d8d8d"/><rect x="-1.6" y="-3" width="3.2" height="9" fill="#8d8d8d"/><rect x="3.8" y="-3" width="3.2" height="9" fill="#8d8d8d"/><rect x="-8" y="-6" width="16" height="3" fill="#6f6f6f"/>',
  gold: '<path d="M-5,2.5 L-2.5,-3.5 L3,-3.5 L5.5,2.5 L1,4.5 Z" fill="#f2c230" stroke="#8a6600" stroke-width="1"/>',
  mushrooms: '<path d="M-5.5,0 A5.5,5.5 0 0 1 5.5,0 Z" fill="#d9302c" stroke="#7a1411" stroke-width=".6"/><rect x="-1.6" y="0" width="3.2" height="4.5" fill="#f5f0e0"/><circle cx="-2" cy="-2.4" r=".9" fill="#fff"/><circle cx="2" cy="-3" r=".9" fill="#fff"/>',
  fish: '<path d="M-4.5,0 Q0,-3.2 4,0 Q0,3.2 -4.5,0 Z M3.6,0 L7,-2.6 L7,2.6 Z" fill="#fff"/>',
  spring: '<circle r="5" fill="#d6f0ff" stroke="#2f74b5" stroke-width="1.6"/>',
  volcano: '<path d="M-11,7 L-3.5,-6 L3.5,-6 L11,7 Z" fill="#6b4a3a" stroke="#3b2a20" stroke-width=".8"/><path d="M-3.5,-6 L0,-11 L3.5,-6 Z" fill="#e8491d"/>',
};
// figures, about 22 units tall
const MEEPLE = "M-4.3,-8.2 a4.3,4.3 0 1,0 8.6,0 a4.3,4.3 0 1,0 -8.6,0 Z M-3,-4.5 L3,-4.5 L9,-1.5 L9,1.5 L5,1 L8,10 L2,10 L0,5 L-2,10 L-8,10 L-5,1 L-9,1.5 L-9,-1.5 Z";
const HUT = "M-9,8 L-9,-1 L0,-10 L9,-1 L9,8 Z";
function figureSvg(role, fill, opts = {}) {
  const stroke = opts.stroke || "#111";
  if (role === "hut") return `<path d="${HUT}" fill="${fill}" stroke="${stroke}" stroke-width="1.6"/><rect x="-2.5" y="2" width="5" height="6" fill="${stroke}" opacity=".55"/>`;
  const body = `<path d="${MEEPLE}" fill="${fill}" stroke="${stroke}" stroke-width="1.5" fill-rule="nonzero"/>`;
  return role === "hunter" ? `<g transform="rotate(90)">${body}</g>` : body;
}

export function mount(shell) {
  const { t, h, dot } = shell;
  const root = shell.root;
  const $ = (sel) => root.querySelector(sel);
  const clause = (c) => { const w = CLAUSES[c]; return w ? w[shell.lang === "de" ? 1 : 0] : ""; };
  const S = {
    catalog: null, digest: null, sel: null, selFor: -1, pick: null, filter: "all", hl: null, hlFor: null, journal: null,
    geo: new Map(), svgs: new Map(), tilesOpen: window.innerWidth >= 900, legendOpen: false,
  };
  const VW = { box: null, auto: true, pointers: new Map(), drag: null, pinch: null, dragged: false };
  const live = () => shell.live;
  const playing = (v) => v.has_game !== false && !v.over;
  const placing = (v) => playing(v) && (v.prompt.kind === "place" || v.prompt.kind === "bonus-place");
  const drawing = (v) => playing(v) && (v.prompt.kind === "draw" || v.prompt.kind === "bonus-draw");
  const catTile = (id) => (S.catalog ? S.catalog.tiles.find((x) => x.id === id) : null);
  const provTile = (id) => { const c = catTile(id); return c ? c.provisional : false; };
  const sq = (at) => `${at[0]},${at[1]}`;
  const setHtml = (el, html) => { el.innerHTML = html; shell.placeWidgets(el); };

  // ----- tiles as SVG ---------------------------------------------------------------------------------
  function geo(tv) {
    const key = `${tv.tile || tv.id}:${tv.rot || 0}:${tv.edges}`;
    let g = S.geo.get(key);
    if (!g) { g = geometry(tv); S.geo.set(key, g); }
    return g;
  }
  const glyph = (kind, x, y, scale = 1) => `<g transform="translate(${f1(x)},${f1(y)})${scale !== 1 ? ` scale(${scale})` : ""}"><title>${h(t(kind))}</title>${GLYPH[kind]}</g>`;
  function tileInner(tv) {
    const key = `${tv.tile || tv.id}:${tv.rot || 0}:${tv.edges}:${shell.lang}`;
    const got = S.svgs.get(key);
    if (got) return got;
    const g = geo(tv);
    let s = `<rect width="100" height="100" fill="${C.meadow}"/>`;
    for (const f of g.forests) {
      s += f.circle ? `<circle cx="${f.circle[0]}" cy="${f.circle[1]}" r="${f.circle[2]}" fill="${C.forest}"/>` : `<path d="${f.d}" fill="${C.forest}" stroke="${C.forestEdge}" stroke-width="1.5" stroke-linejoin="round"><title>${h(t("forestL"))}</title></path>`;
    }
    for (const r of g.rivers) s += `<path d="${r.d}" fill="none" stroke="${C.river}" stroke-width="11" stroke-linecap="round"><title>${h(t("riverL"))}</title></path><path d="${r.d}" fill="none" stroke="${C.riverLight}" stroke-width="3" stroke-linecap="round"/>`;
    for (const r of g.rivers) if (r.spring) s += glyph("spring", r.spring[0], r.spring[1]);
    for (const l of g.lakes) {
      const [x, y, rad] = l.c;
      const fish = l.seg.fish || 0;
      s += `<circle cx="${x}" cy="${y}" r="${rad}" fill="${C.lake}" stroke="${C.lakeEdge}" stroke-width="1.5"><title>${h(t("lake"))}: ${fish} ${h(t("fish"))}</title></circle>`;
      if (fish <= 3) for (let i = 0; i < fish; i++) s += glyph("fish", x - 1, y + (i - (fish - 1) / 2) * 7, 0.85);
      else s += glyph("fish", x - 4, y, 0.85) + `<text x="${x + 7}" y="${y + 4}" font-size="11" fill="#fff" font-weight="700" text-anchor="middle">${fish}</text>`;
    }
    for (const row of g.rows) row.items.forEach((it, i) => { s += glyph(it, row.at[0] + (i - (row.items.length - 1) / 2) * 12, row.at[1]); });
    if (g.volcano) s += glyph("volcano", g.volcano[0], g.volcano[1]);
    s += `<rect width="100" height="100" fill="none" stroke="${C.border}" stroke-width="1.5"/>`;
    S.svgs.set(key, s);
    return s;
  }
  const thumb = (tv, cls = "") => `<svg viewBox="-2 -2 104 104" class="${cls}" role="img" aria-label="${h(tv.tile || tv.id)}">${tileInner(tv)}</svg>`;
  const figColour = (seat) => shell.colour(shell.pcol(seat));

  // ----- the map: pan and zoom --------------------------------------------------------------------------
  const svg = () => $("#c-svg");
  function bounds(v) {
    const pts = v.map.map((x) => x.at);
    if (placing(v) && live()) for (const o of v.prompt.options) pts.push(o.at);
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    return [Math.min(...xs) * U, Math.min(...ys) * U, (Math.max(...xs) + 1) * U, (Math.max(...ys) + 1) * U];
  }
  function elSize() { const el = svg(); const w = el.clientWidth || 360, hh = el.clientHeight || 300; return [w, hh]; }
  function fitBox(v) {
    const [x0, y0, x1, y1] = bounds(v);
    const m = 25;
    let box = [x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m];
    const [cw, ch] = elSize();
    const aspect = cw / ch;
    if (box[2] / box[3] < aspect) { const w = box[3] * aspect; box = [box[0] - (w - box[2]) / 2, box[1], w, box[3]]; }
    else { const hh = box[2] / aspect; box = [box[0], box[1] - (hh - box[3]) / 2, box[2], hh]; }
    if (box[2] < 340) { const f = 340 / box[2]; box = [box[0] - (box[2] * (f - 1)) / 2, box[1] - (box[3] * (f - 1)) / 2, box[2] * f, box[3] * f]; }
    return box;
  }
  function applyBox() { if (VW.box) svg().setAttribute("viewBox", VW.box.map(f1).join(" ")); }
  function scale() { const [cw, ch] = elSize(); return Math.max(VW.box[2] / cw, VW.box[3] / ch); }
  function toMap(px, py) {
    const el = svg().getBoundingClientRect();
    const s = scale();
    const [cw, ch] = elSize();
    const ox = VW.box[0] - (cw * s - VW.box[2]) / 2, oy = VW.box[1] - (ch * s - VW.box[3]) / 2;
    return [ox + (px - el.left) * s, oy + (py - el.top) * s];
  }
  function zoom(factor, cx, cy) {
    if (!VW.box) return;
    const [x, y, w, hh] = VW.box;
    const nw = Math.max(150, Math.min(6000, w / factor));
    const f = nw / w;
    if (cx === undefined) { cx = x + w / 2; cy = y + hh / 2; }
    VW.box = [cx - (cx - x) * f, cy - (cy - y) * f, w * f, hh * f];
    VW.auto = false;
    applyBox();
  }
  function onPointerDown(ev) {
    VW.dragged = false;
    if (!ev.target.closest || !ev.target.closest("#c-svg")) return;
    VW.pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (VW.pointers.size === 1) VW.drag = { x: ev.clientX, y: ev.clientY, box: VW.box ? VW.box.slice() : null, moved: false };
    if (VW.pointers.size === 2) {
      const [a, b] = [...VW.pointers.values()];
      VW.pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), box: VW.box.slice(), mid: toMap((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) };
      VW.drag = null;
    }
  }
  function onPointerMove(ev) {
    if (!VW.pointers.has(ev.pointerId) || !VW.box) return;
    VW.pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (VW.pinch && VW.pointers.size === 2) {
      const [a, b] = [...VW.pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      VW.box = VW.pinch.box.slice();
      zoom(d / (VW.pinch.d || 1), VW.pinch.mid[0], VW.pinch.mid[1]);
      VW.dragged = true;
      return;
    }
    const dr = VW.drag;
    if (!dr || !dr.box) return;
    const dx = ev.clientX - dr.x, dy = ev.clientY - dr.y;
    if (!dr.moved && Math.hypot(dx, dy) < 7) return;
    dr.moved = true; VW.dragged = true; VW.auto = false;
    const s = scale();
    VW.box = [dr.box[0] - dx * s, dr.box[1] - dy * s, dr.box[2], dr.box[3]];
    applyBox();
  }
  function onPointerUp(ev) {
    VW.pointers.delete(ev.pointerId);
    if (VW.pointers.size < 2) VW.pinch = null;
    if (!VW.pointers.size) VW.drag = null;
  }
  function onWheel(ev) {
    ev.preventDefault();
    const [mx, my] = toMap(ev.clientX, ev.clientY);
    zoom(ev.deltaY < 0 ? 1.2 : 1 / 1.2, mx, my);
  }

  // ----- rendering ------------------------------------------------------------------------------------------
  function render() {
    const lv = shell.view;
    if (!lv) return;
    if (!lv.has_game) {
      $("#c-status").innerHTML = shell.noGame() + shell.warnings();
      for (const id of ["c-entry", "c-scores", "c-features", "c-chain", "c-tiles", "c-legend"]) $("#" + id).innerHTML = "";
      $("#c-map").hidden = true;
      return;
    }
    $("#c-map").hidden = false;
    const v = shell.shown();
    renderStatus(v); renderEntry(v); renderMap(v); renderScores(v); renderFeatures(v); renderChain(v); renderTiles(v); renderLegend();
  }

  function doingText(v) {
    const p = v.prompt;
    if (v.over) return t("w_over");
    const vars = { p: p.player, tile: p.tile || "", n: p.kind === "bonus-draw" ? v.tiles_left.bonus_left : v.tiles_left.land_left };
    if (p.kind === "draw") return t("w_draw", vars);
    if (p.kind === "bonus-draw") return t("w_bonus", vars);
    if (p.discard && p.discard.allowed) return t("w_discard", vars);
    return t(p.kind === "bonus-place" ? "w_bonusPlace" : "w_place", vars);
  }

  function renderStatus(v) {
    const p = v.prompt;
    const who = v.over ? `<span data-testid="to-move">${h(t("gameOver"))}</span>`
      : `${dot(shell.pcol(p.seat))}<span data-testid="to-move">${h(p.player)}</span> <span class="muted">${h(p.chance ? t("table") : t("toMove"))} · ${h(t("turn"))} ${v.position.turn}</span>`;
    let html = `<div class="who">${who}</div>`;
    const small = v.drawn && !v.over ? `<span class="bigtile" data-testid="drawn-small" title="${h(v.drawn.id)}">${thumb(v.drawn.rotations[S.sel && S.selFor === v.state_id ? S.sel.rot : 0], "")}</span>` : "";
    html += `<div class="drawnrow">${small ? `<div style="width:3.4rem">${small}</div>` : ""}<p class="doing" data-testid="doing"><b>${h(t("doNow"))}:</b> ${h(doingText(v))}</p></div>`;
    if (v.over && v.ranking) {
      html += `<h2>${h(t("finalRanking"))}</h2><ol class="ranking" data-testid="ranking">${v.ranking.map((r) => `<li>${dot(shell.pcol(r.seat))} ${h(r.name)}: ${r.score} ${h(t("pts"))}</li>`).join("")}</ol>`;
    }
    html += shell.warnings();
    $("#c-status").innerHTML = html;
  }

  // --- move entry ---
  function squaresOf(v) {
    const m = new Map();
    for (const o of v.prompt.options) { const k = sq(o.at); if (!m.has(k)) m.set(k, []); m.get(k).push(o); }
    return m;
  }
  function selOption(v) {
    if (!S.sel || S.selFor !== v.state_id) return null;
    return v.prompt.options.find((o) => sq(o.at) === S.sel.sq && o.rot === S.sel.rot) || null;
  }
  function selectSquare(v, k) {
    const opts = squaresOf(v).get(k);
    if (!opts) return;
    if (S.sel && S.sel.sq === k && S.selFor === v.state_id) return;
    S.sel = { sq: k, rot: opts[0].rot, fig: null }; S.selFor = v.state_id;
    shell.setError(null);
    renderEntry(v); renderMap(v); renderStatus(v);
    const el = $("#c-entry");
    if (el.scrollIntoView && window.innerWidth < 900) el.scrollIntoView({ block: "nearest" });
  }
  function figName(role) { return t(role); }
  function spotMarkers(v, o, tv) {
    const g = geo(tv);
    const bySpot = {};
    o.spots.forEach((sp, i) => { (bySpot[sp.spot] = bySpot[sp.spot] || []).push([sp, i]); });
    let s = "";
    for (const [spot, list] of Object.entries(bySpot)) {
      const a = g.anchors[spot];
      if (!a) continue;
      list.forEach(([sp, i], j) => {
        const x = Math.max(12, Math.min(88, a[0] + (j - (list.length - 1) / 2) * 20)), y = Math.max(12, Math.min(88, a[1]));
        const on = S.sel.fig === i;
        const fill = sp.allowed ? (on ? figColour(v.prompt.seat) : "#ffffff") : "#d6d0c8";
        s += `<g class="spotmk" transform="translate(${f1(x)},${f1(y)})" ${sp.allowed ? `data-fig="${i}"` : ""} data-testid="mark-${h(sp.role)}-${h(sp.spot)}">
          <title>${h(figName(sp.role))} ${h(sp.spot)}${sp.allowed ? "" : ` — ${h(sp.clause)}: ${h(sp.reason)}`}</title>
          <circle r="12" fill="${on ? "#fff7" : "#0000"}" stroke="${on ? "#d11" : "#0000"}" stroke-width="3"/>
          <g transform="scale(.8)">${figureSvg(sp.role, fill, { stroke: sp.allowed ? "#111" : "#8a8178" })}</g>
          ${sp.allowed ? "" : '<path d="M-8,-8 L8,8 M8,-8 L-8,8" stroke="#b3541e" stroke-width="2.6"/>'}
          <text x="9" y="-7" font-size="9" font-weight="700" fill="#111">${i + 1}</text></g>`;
      });
    }
    return s;
  }
  function entryPlace(v) {
    const p = v.prompt;
    const squares = squaresOf(v);
    let html = `<h2>${h(t("drawnTile"))}: ${h(p.tile)} <span class="muted">${h(p.kind === "bonus-place" ? t("bonusTile") : t("landTile"))}</span> ${provTile(p.tile) ? shell.provTag() : ""}</h2>`;
    if (p.discard && p.discard.allowed) {
      const c = p.kind === "bonus-place" ? "H-GOLD-5" : "H-DRAW-2";
      html += `<p>${h(t("fitsNowhere"))}</p><div class="reason" data-testid="discard-why"><b>${c}</b> (${h(clause(c))})</div>
        <div class="drawnrow"><div class="bigtile" style="width:7rem">${thumb(v.drawn.rotations[0])}</div>
        <button class="act" data-do="discard" data-testid="discard">${h(t("discard"))}</button></div>`;
      return html;
    }
    const o = selOption(v);
    if (!o) {
      html += `<div class="drawnrow"><div class="bigtile" style="width:7rem">${thumb(v.drawn.rotations[0])}</div>
        <p>${h(t("tapSquare", { n: squares.size, m: p.options.length }))}</p></div>
        <details><summary>${h(t("squareList"))}</summary><div class="chips">${[...squares.keys()].map((k) => `<button class="chip" data-sq="${k}" data-testid="sq-${k}">${k}</button>`).join("")}</div></details>`;
      return html;
    }
    const rots = squares.get(S.sel.sq);
    const tv = v.drawn.rotations[o.rot];
    html += `<div class="drawnrow"><svg class="bigtile" viewBox="-4 -4 108 108" width="150" height="150" data-testid="preview-tile">${tileInner(tv)}${spotMarkers(v, o, tv)}</svg>
      <div><div><b>${h(t("square"))} ${h(S.sel.sq)}</b></div>
      <div class="muted">${h(t("rotation"))} — ${h(t("onlyLegalRot"))}</div>
      <div class="chips">${rots.map((r) => `<button class="chip rotchip${r.rot === o.rot ? " on" : ""}" data-rot="${r.rot}" data-testid="rot-${r.rot}" title="r${r.rot}">${thumb(v.drawn.rotations[r.rot])}</button>`).join("")}
      ${rots.length > 1 ? `<button class="sec" data-do="rotate" data-testid="rotate">↻ ${h(t("rotate"))}</button>` : ""}</div></div></div>`;
    html += `<h3>${h(t("figure"))} <span class="muted">${h(t("figureHint"))}</span></h3><div class="chips">
      <button class="chip${S.sel.fig === null ? " on" : ""}" data-fig="none" data-testid="fig-none">${h(t("noFigure"))}</button>`;
    const why = [];
    o.spots.forEach((sp, i) => {
      const label = `${i + 1} · ${t(sp.role + "On")} (${sp.spot})`;
      if (sp.allowed) html += `<button class="chip${S.sel.fig === i ? " on" : ""}" data-fig="${i}" data-testid="fig-${h(sp.role)}-${h(sp.spot)}">${h(label)}</button>`;
      else {
        html += `<button class="chip" disabled data-testid="fig-${h(sp.role)}-${h(sp.spot)}">${h(label)} ✕</button>`;
        const w = clause(sp.clause);
        why.push(`<div class="why" data-testid="why-${h(sp.role)}-${h(sp.spot)}">${h(label)} — ${h(t("refused"))}<div class="reason"><b>${h(sp.clause)}</b>${w ? ` (${h(w)})` : ""}: ${h(sp.reason)}</div></div>`);
      }
    });
    html += `</div>${why.join("")}`;
    const move = S.sel.fig === null ? o.move : o.spots[S.sel.fig].move;
    html += `<div style="margin-top:.5rem"><span class="preview" data-testid="preview">${h(move)}</span>
      <button class="act" data-do="confirm" data-testid="confirm">${h(t("confirm"))}</button>
      <button class="sec" data-do="cancel" data-testid="cancel">${h(t("cancel"))}</button></div>`;
    return html;
  }
  const FILTERS = {
    all: () => true,
    forest: (tv) => tv.segments.some((s) => s.kind === "forest"),
    river: (tv) => tv.segments.some((s) => s.kind === "river"),
    lake: (tv) => tv.segments.some((s) => s.kind === "lake"),
    meadow: (tv) => tv.segments.every((s) => s.kind === "meadow"),
    animals: (tv) => tv.segments.some((s) => s.deer || s.mammoths || s.tigers || s.aurochs),
    gold: (tv) => tv.segments.some((s) => s.gold),
  };
  const FILTER_KEYS = { all: "filterAll", forest: "filterForest", river: "filterRiver", lake: "filterLake", meadow: "filterMeadow", animals: "filterAnimals", gold: "filterGold" };
  function entryDraw(v) {
    const p = v.prompt;
    const bonus = p.kind === "bonus-draw";
    let html = `<h2>${h(t(bonus ? "whichBonus" : "whichDrawn", { p: p.player }))}</h2>`;
    const opts = p.options;
    const many = opts.length > 12 && S.catalog;
    if (many) html += `<div class="chips">${Object.keys(FILTERS).map((f) => `<button class="chip${S.filter === f ? " on" : ""}" data-filter="${f}" data-testid="filter-${f}">${h(t(FILTER_KEYS[f]))}</button>`).join("")}</div>`;
    const shownOpts = opts.filter((o) => { const c = catTile(o.tile); return !many || !c || FILTERS[S.filter](c); });
    const anyProv = opts.some((o) => provTile(o.tile));
    html += `<div class="picker">${shownOpts.map((o) => {
      const c = catTile(o.tile);
      return `<button data-draw="${h(o.tile)}" data-testid="draw-${h(o.tile)}" class="${S.pick === o.tile ? "on" : ""}" title="${h(o.tile)}: ${Math.round(o.probability * 100)}%">${c ? thumb(c) : ""}<span><b>${h(o.tile)}</b> ×${o.left}</span></button>`;
    }).join("")}</div>`;
    if (anyProv) html += `<p class="muted">${shell.provTag()} ${h(t("provNote"))}</p>`;
    if (S.pick && opts.some((o) => o.tile === S.pick)) {
      const move = `${bonus ? "bonus" : "draw"} ${S.pick}`;
      html += `<div style="margin-top:.4rem"><span class="preview" data-testid="preview">${h(move)}</span>
        <button class="act" data-do="confirm-draw" data-testid="confirm">${h(t("confirm"))}: ${h(t("drawConfirm", { tile: S.pick }))}</button>
        <button class="sec" data-do="cancel" data-testid="cancel">${h(t("cancel"))}</button></div>`;
    }
    return html;
  }
  function renderEntry(v) {
    const el = $("#c-entry");
    el.classList.toggle("after", placing(v));
    if (!live() || v.over) { setHtml(el, `<div data-widget="controls"></div>`); return; }
    if (S.selFor !== v.state_id) { S.sel = null; }
    const html = drawing(v) ? entryDraw(v) : placing(v) ? entryPlace(v) : "";
    setHtml(el, html + `<div data-widget="controls"></div>`);
  }

  function renderMap(v) {
    $("#c-maphead").innerHTML = `<div class="rowhead"><h2>${h(t("map"))}</h2><span class="mapbtns">
      <button class="sec" data-do="zoom-in" data-testid="map-zoom-in" title="${h(t("zoomIn"))}" aria-label="${h(t("zoomIn"))}">+</button>
      <button class="sec" data-do="zoom-out" data-testid="map-zoom-out" title="${h(t("zoomOut"))}" aria-label="${h(t("zoomOut"))}">−</button>
      <button class="sec" data-do="fit" data-testid="map-fit" title="${h(t("fit"))}">⤢ ${h(t("fit"))}</button></span></div>`;
    let s = "";
    for (const tl of v.map) s += `<g transform="translate(${tl.at[0] * U},${tl.at[1] * U})" data-testid="maptile-${sq(tl.at)}" data-tile="${h(tl.tile)}">${tileInner(tl)}</g>`;
    if (v.map.length > 1) { const last = v.map[v.map.length - 1]; s += `<rect x="${last.at[0] * U + 2}" y="${last.at[1] * U + 2}" width="96" height="96" fill="none" stroke="#ff8c00" stroke-width="4" data-testid="last-tile"><title>${h(t("lastTile"))}</title></rect>`; }
    if (S.hl) for (const no of S.hl) { const tl = v.map[no]; if (tl) s += `<rect x="${tl.at[0] * U + 4}" y="${tl.at[1] * U + 4}" width="92" height="92" fill="#a855f733" stroke="#7e22ce" stroke-width="6" class="hl"/>`; }
    // figures
    for (const f of v.figures) {
      const tl = v.map[f.tile];
      if (!tl) continue;
      const a = geo(tl).anchors[f.spot] || [50, 50];
      s += `<g transform="translate(${f1(tl.at[0] * U + a[0])},${f1(tl.at[1] * U + a[1])})" data-testid="mapfig-${f.tile}-${h(f.spot)}"><title>${h((shell.players()[f.seat] || {}).name || "")}: ${h(t(f.role))}</title>
        ${f.cult ? '<circle r="13" fill="none" stroke="#f2c230" stroke-width="3"/>' : ""}${figureSvg(f.role, shell.colour(f.colour))}</g>`;
    }
    if (placing(v) && live() && !(v.prompt.discard && v.prompt.discard.allowed)) {
      const o = selOption(v);
      for (const k of squaresOf(v).keys()) {
        const [x, y] = k.split(",").map(Number);
        const on = o && S.sel.sq === k;
        if (on) {
          const tv = v.drawn.rotations[o.rot];
          s += `<g transform="translate(${x * U},${y * U})" opacity=".93" data-testid="ghost">${tileInner(tv)}`;
          if (S.sel.fig !== null) { const sp = o.spots[S.sel.fig]; const a = geo(tv).anchors[sp.spot] || [50, 50]; s += `<g transform="translate(${f1(a[0])},${f1(a[1])})">${figureSvg(sp.role, figColour(v.prompt.seat))}</g>`; }
          s += `</g>`;
        }
        s += `<rect class="lsq${on ? " sel" : ""}" x="${x * U + 3}" y="${y * U + 3}" width="94" height="94" rx="6" data-sq="${k}" data-testid="spot-${k}"><title>${k}</title></rect>`;
      }
    }
    svg().innerHTML = s;
    const journal = shell.view.journal;
    if (journal !== S.journal) { S.journal = journal; VW.auto = true; }
    if (VW.auto || !VW.box) VW.box = fitBox(v);
    applyBox();
    $("#c-maphint").innerHTML = `${h(t("mapHint"))}${S.catalog && v.map.some((x) => provTile(x.tile)) ? ` · ${shell.provTag()}` : ""}`;
  }

  function renderScores(v) {
    const rows = v.scores.map((s) => `<tr data-testid="score-row-${s.seat}"><td>${dot(s.colour)} ${h(s.name)}
        <div class="muted supply" data-testid="supply-${s.seat}" title="${h(t("supply"))}: ${s.members} ${h(t("membersLeft"))}, ${s.huts_left} ${h(t("hutsLeft"))}">${icon("gatherer")}${s.members} ${icon("hut")}${s.huts_left}</div></td>
      <td class="total" data-testid="score-total-${s.seat}">${s.total}</td><td data-testid="score-forests-${s.seat}">${s.forests}</td>
      <td data-testid="score-rivers-${s.seat}">${s.rivers}</td>
      ${v.over ? `<td data-testid="score-hunters-${s.seat}">${s.hunters}</td><td data-testid="score-huts-${s.seat}">${s.huts}</td>` : `<td class="proj" data-testid="score-proj-${s.seat}">${s.projected}</td>`}</tr>`).join("");
    let html = `<h2>${h(t("scores"))}</h2><table class="scoretab"><tr><th>${h(t("player"))}</th><th title="${h(t("total"))}">${h(t("h_total"))}</th><th title="${h(t("forests"))}">${h(t("h_forests"))}</th><th title="${h(t("rivers"))}">${h(t("h_rivers"))}</th>${v.over ? `<th title="${h(t("hunters"))}">${h(t("h_hunters"))}</th><th title="${h(t("huts"))}">${h(t("h_huts"))}</th>` : `<th title="${h(t("projTotal"))}">${h(t("h_projTotal"))}</th>`}</tr>${rows}</table>`;
    if (!v.over) {
      html += `<h3>${h(t("projected"))}</h3><table class="scoretab" data-testid="projected"><tr><th>${h(t("player"))}</th><th title="${h(t("forests"))}">${h(t("h_forests"))}</th><th title="${h(t("rivers"))}">${h(t("h_rivers"))}</th><th title="${h(t("hunters"))}">${h(t("h_hunters"))}</th><th title="${h(t("huts"))}">${h(t("h_huts"))}</th><th title="${h(t("total"))}">${h(t("h_total"))}</th></tr>
        ${v.scores.map((s) => { const pp = s.projected_parts; return `<tr><td>${dot(s.colour)} ${h(s.name)}</td><td>${pp.forests}</td><td>${pp.rivers}</td><td data-testid="proj-hunters-${s.seat}">${pp.hunters}</td><td data-testid="proj-huts-${s.seat}">${pp.huts}</td><td class="proj">${s.projected}</td></tr>`; }).join("")}</table>
        <p class="muted">${h(t("projNote"))}</p>`;
    }
    $("#c-scores").innerHTML = html;
  }

  const icon = (role) => `<svg class="ico" viewBox="-11 -13 22 24" aria-hidden="true">${figureSvg(role, "#fff", { stroke: "#555" })}</svg>`;
  const nameOf = (seat) => (shell.players()[seat] || {}).name || `#${seat + 1}`;
  function winnersHtml(list) {
    if (!list || !list.length) return `<span class="muted">${h(t("nobody"))}</span>`;
    return list.map((w) => `${dot(shell.pcol(w))} ${h(nameOf(w))}`).join(", ") + (list.length > 1 ? ` <span class="muted">(${h(t("tieAll"))})</span>` : "");
  }
  const figsHtml = (figs) => (figs || []).map((n, i) => (n ? `${dot(shell.pcol(i))}×${n}` : "")).filter(Boolean).join(" ");
  function featureLine(f) {
    const d = f.detail || {};
    const n = (key, x) => t(x === 1 && STRINGS.en[key + "1"] ? key + "1" : key, { n: x });
    if (f.feature === "forest") {
      const inner = [n("f_tiles", d.tiles), ...(d.mushrooms ? [n("f_mush", d.mushrooms)] : [])].join(" + ");
      return { icon: "forestL", title: t("forest"), calc: `2 × (${inner})`, gold: f.gold || d.gold > 0 };
    }
    if (f.feature === "river") return { icon: "riverL", title: t("river"), calc: [n("f_tiles", d.tiles), n("f_fish", d.fish || 0)].join(" + ") };
    if (f.feature === "huts") return { icon: "hut", title: t("riverSystem"), calc: n("f_fish", d.fish || 0) };
    const parts = [n("f_deer", d.deer || 0)];
    if (d.eaten) parts.push(`− ${n("f_eaten", d.eaten)}`);
    if (d.mammoths) parts.push(`+ ${n("f_mammoths", d.mammoths)}`);
    if (d.aurochs) parts.push(`+ ${n("f_aurochs", d.aurochs)}`);
    const notes = [];
    if (d.tigers > (d.eaten || 0) && !d.fire) notes.push(n("f_tigers", d.tigers));
    if (d.fire) notes.push(t("f_fire"));
    if (d.cult) notes.push(t("f_cult"));
    return { icon: "meadowL", title: t("meadow"), calc: `2 × (${parts.join(" ")})`, notes };
  }
  function renderFeatures(v) {
    const groups = { completed: [], open: [], projected: [], final: [] };
    v.features.forEach((f, i) => { (groups[f.status] || groups.completed).push([f, i]); });
    const row = ([f, i]) => {
      const L = featureLine(f);
      const pts = f.status === "open" ? f.points_if_completed : f.points;
      const on = S.hl && S.hlFor === i;
      const who = f.status === "open" ? f.leaders : f.winners;
      return `<div class="feat${on ? " on" : ""}" data-feat="${i}" data-testid="feat-${i}" data-kind="${h(f.feature)}" data-status="${h(f.status)}">
        <b>${h(L.title)}</b>${f.turn !== undefined && f.status === "completed" ? ` <span class="muted">${h(t("turn"))} ${f.turn}</span>` : ""}${L.gold ? ` <span class="badge">${h(t("f_gold"))}</span>` : ""}
        · ${h(L.calc)} = <span class="pts">${pts}</span>${f.status === "open" ? ` <span class="muted">${h(t("ifCompleted"))} · ${h(t("openEdges", { n: f.open_edges }))}</span>` : ""}
        ${L.notes && L.notes.length ? `<div class="muted">${h(L.notes.join(" · "))}</div>` : ""}
        <div>→ ${winnersHtml(who)} <span class="muted">${figsHtml(f.figures)}</span></div></div>`;
    };
    const sec = (title, list, empty) => `<h3>${h(title)}</h3>${list.length ? list.map(row).join("") : `<p class="muted">${h(empty || t("none"))}</p>`}`;
    let html = `<h2>${h(t("features"))}</h2><p class="muted">${h(t("tapToShow"))}</p>`;
    html += sec(t("completed"), groups.completed.slice().reverse());
    if (!v.over) html += sec(t("openFeatures"), groups.open) + sec(t("projFinal"), groups.projected);
    else html += sec(t("finalScoring"), groups.final);
    $("#c-features").innerHTML = html;
  }

  function renderChain(v) {
    const ch = v.bonus_chain || [];
    const pendingNow = playing(v) && (v.prompt.kind === "bonus-draw" || v.prompt.kind === "bonus-place");
    if (!ch.length && !pendingNow) { $("#c-chain").innerHTML = `<h2>${h(t("chain"))}</h2><p class="muted">${h(t("chainEmpty"))}</p>`; return; }
    const cl = (c) => `<span class="reason"><b>${h(c)}</b> (${h(clause(c))})</span>`;
    const items = ch.map((e, i) => {
      const cb = e.completed_by;
      let what;
      if (e.status === "laid") {
        const then = e.then.length ? t("c_then", { what: e.then.map((x) => `${t(x.feature)} ${x.points} ${t("pts")}${x.gold ? ` (${t("f_gold")})` : ""}`).join(", ") }) : t("c_thenNone");
        what = `${h(t("c_laid", { tile: e.bonus.tile, at: sq(e.bonus.at) }))} ${cl("H-GOLD-2")}<div class="muted">${h(then)}${e.then.some((x) => x.gold) ? ` — ${h(t("c_nochain"))} ${cl("H-GOLD-3")}` : ""}</div>`;
      } else if (e.status === "pending") what = `${h(e.drawn ? t("c_pendingDrawn", { tile: e.drawn }) : t("c_pending"))} ${cl("H-GOLD-1")}`;
      else if (e.status === "no-chain") what = `${h(t("c_nochain"))} ${cl("H-GOLD-3")}`;
      else if (e.status === "one-per-turn") what = `${h(t("c_oneper"))} ${cl("H-GOLD-4")}`;
      else what = `${h(e.clause === "H-GOLD-5" ? t("c_noneRemoved") : t("c_none"))} ${cl(e.clause)}`;
      return `<li data-testid="chain-${i}" data-status="${h(e.status)}">${dot(shell.pcol(e.by))} ${h(t("c_head", { turn: e.turn, p: e.player, tile: cb.tile, at: sq(cb.at) }))} → ${what}</li>`;
    });
    $("#c-chain").innerHTML = `<h2>${h(t("chain"))}</h2><ol class="chain">${items.join("")}</ol>`;
  }

  function renderTiles(v) {
    const tl = v.tiles_left;
    const cell = (x) => { const c = catTile(x.tile); return `<span class="tl${x.left ? "" : " gone"}" data-testid="left-${h(x.tile)}" title="${h(x.tile)}">${c ? thumb(c) : ""}<span>${h(x.tile)}</span><span>${x.left}/${x.of}</span></span>`; };
    const anyProv = S.catalog && [...tl.land, ...tl.bonus].some((x) => provTile(x.tile));
    $("#c-tiles").innerHTML = `<details ${S.tilesOpen ? "open" : ""} data-do="tiles-toggle"><summary><b>${h(t("tilesLeft"))}</b>: <span data-testid="land-left">${h(t("landLeft", { n: tl.land_left }))}</span>, <span data-testid="bonus-left">${h(t("bonusLeft", { n: tl.bonus_left }))}</span></summary>
      ${anyProv ? `<p class="muted">${shell.provTag()} ${h(t("provNote"))}</p>` : ""}
      <h3>${h(t("landStack"))}</h3><div>${tl.land.map(cell).join("")}</div><h3>${h(t("bonusStack"))}</h3><div>${tl.bonus.map(cell).join("")}</div>
      ${tl.removed.length ? `<h3>${h(t("removed"))}</h3><p data-testid="removed">${tl.removed.map(h).join(", ")}</p>` : ""}</details>`;
  }

  function renderLegend() {
    const g = (k) => `<span><svg viewBox="-12 -12 24 24">${GLYPH[k]}</svg>${h(t(k))}</span>`;
    const sw = (col, k) => `<span><svg viewBox="0 0 24 24"><rect width="24" height="24" rx="3" fill="${col}"/></svg>${h(t(k))}</span>`;
    const fig = (role) => `<span><svg viewBox="-12 -12 24 24">${figureSvg(role, "#ddd")}</svg>${h(t(role))}</span>`;
    $("#c-legend").innerHTML = `<details ${S.legendOpen ? "open" : ""}><summary><b>${h(t("legend"))}</b></summary><div class="legend">
      ${sw(C.forest, "forestL")}${sw(C.river, "riverL")}${sw(C.lake, "lake")}${sw(C.meadow, "meadowL")}
      ${["deer", "mammoth", "tiger", "aurochs", "gold", "mushrooms", "fire", "cult", "fish", "spring", "volcano"].map(g).join("")}
      ${["gatherer", "fisher", "hunter", "hut"].map(fig).join("")}</div></details>`;
  }

  // ----- data -------------------------------------------------------------------------------------------------
  async function update(v) {
    if (S.selFor !== v.state_id) { S.sel = null; S.pick = null; }
    const digest = v.has_game ? v.position.profile.digest : v.profile && v.profile.digest;
    if (digest && digest !== S.digest) {
      const r = await shell.api("GET", "/api/catalog");
      if (r.ok && r.data && r.data.tiles) { S.catalog = r.data; S.digest = r.data.digest; S.geo.clear(); S.svgs.clear(); }
    }
  }

  // ----- events -----------------------------------------------------------------------------------------------
  async function onClick(ev) {
    const target = ev.target;
    if (!target.closest || !root.contains(target)) return;
    const v = shell.view;
    if (!v || !v.has_game) return;
    const el = target.closest("[data-sq], [data-rot], [data-fig], [data-draw], [data-filter], [data-feat], [data-do]");
    if (!el) return;
    const d = el.dataset;
    if (d.sq !== undefined) {
      if (VW.dragged) { VW.dragged = false; return; }
      if (live() && placing(v)) selectSquare(v, d.sq);
      return;
    }
    if (d.feat !== undefined) {
      const i = Number(d.feat);
      const sv = shell.shown();
      if (S.hlFor === i) { S.hl = null; S.hlFor = null; } else { S.hl = sv.features[i].tiles; S.hlFor = i; }
      renderFeatures(sv); renderMap(sv);
      return;
    }
    if (d.filter !== undefined) { S.filter = d.filter; renderEntry(v); return; }
    if (d.draw !== undefined) { S.pick = d.draw; S.selFor = v.state_id; renderEntry(v); return; }
    if (d.rot !== undefined && S.sel) { S.sel.rot = Number(d.rot); S.sel.fig = null; renderEntry(v); renderMap(v); renderStatus(v); return; }
    if (d.fig !== undefined && S.sel) { S.sel.fig = d.fig === "none" ? null : Number(d.fig); renderEntry(v); renderMap(v); return; }
    switch (d.do) {
      case "zoom-in": zoom(1.4); break;
      case "zoom-out": zoom(1 / 1.4); break;
      case "fit": VW.auto = true; VW.box = fitBox(shell.shown()); applyBox(); break;
      case "rotate": {
        const rots = squaresOf(v).get(S.sel.sq).map((o) => o.rot);
        S.sel.rot = rots[(rots.indexOf(S.sel.rot) + 1) % rots.length]; S.sel.fig = null;
        renderEntry(v); renderMap(v); renderStatus(v); break;
      }
      case "cancel": S.sel = null; S.pick = null; shell.setError(null); renderEntry(v); renderMap(v); renderStatus(v); break;
      case "confirm": {
        const o = selOption(v);
        if (!o) break;
        el.disabled = true;
        await shell.submitMove(S.sel.fig === null ? o.move : o.spots[S.sel.fig].move);
        break;
      }
      case "confirm-draw": if (S.pick) { el.disabled = true; await shell.submitMove(`${v.prompt.kind === "bonus-draw" ? "bonus" : "draw"} ${S.pick}`); } break;
      case "discard": el.disabled = true; await shell.submitMove("discard"); break;
      default: break;
    }
  }
  function onToggle(ev) {
    const el = ev.target;
    if (!root.contains(el) || el.tagName !== "DETAILS") return;
    if (el.closest("#c-tiles")) S.tilesOpen = el.open;
    if (el.closest("#c-legend")) S.legendOpen = el.open;
  }

  root.innerHTML = `<div class="carc"><div class="col" data-camera-slot>
      <section id="c-status" class="card"></section>
      <section id="c-entry" class="card"></section>
      <section id="c-scores" class="card"></section>
      <section id="c-features" class="card"></section>
      <section id="c-chain" class="card"></section>
    </div><div class="col">
      <section id="c-map" class="card mapcard"><div id="c-maphead"></div>
        <svg id="c-svg" class="cmap" data-testid="map" xmlns="http://www.w3.org/2000/svg" role="img"></svg>
        <div id="c-maphint" class="muted"></div></section>
      <section id="c-tiles" class="card"></section>
      <section id="c-legend" class="card"></section>
      <div data-widget="chart"></div>
      <div data-widget="log"></div>
    </div></div>`;
  const css = new URL("./carcassonne.css", import.meta.url).href;
  let link = document.querySelector(`link[href="${css}"]`);
  if (!link) { link = document.createElement("link"); link.rel = "stylesheet"; link.href = css; document.head.appendChild(link); }
  const wheel = (ev) => onWheel(ev);
  $("#c-svg").addEventListener("wheel", wheel, { passive: false });
  shell.listen("click", onClick);
  shell.listen("pointerdown", onPointerDown);
  shell.listen("pointermove", onPointerMove);
  shell.listen("pointerup", onPointerUp);
  shell.listen("pointercancel", onPointerUp);
  document.addEventListener("toggle", onToggle, true);
  function unmount() {
    document.removeEventListener("toggle", onToggle, true);
    if (link && link.parentNode) link.parentNode.removeChild(link);
  }
  return { strings: STRINGS, clause, update, render, unmount };
}
