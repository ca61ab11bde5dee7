// Coin race's module of the companion page: the smallest game module of the shell (docs/page-shell.md).
// It draws the race track with every player's space, who is to move, and a button per legal move and
// coin outcome (the unavailable ones with the rule's reason); the shell does the rest (log, chart,
// history, undo, corrections, the new-game form, language). Vanilla JS, no build step.
const STRINGS = {
  en: {
    race: "Race to space {goal}", moves: "What can be done", space: "space", coinNow: "The coin was flipped: what does it show?",
    "step 1": "1 step", "step 2": "2 steps", flip: "Flip the coin", "coin heads": "Heads: +3", "coin tails": "Tails: +0",
    unavailable: "not possible", winner: "{p} reached space {goal}",
  },
  de: {
    race: "Wettlauf bis Feld {goal}", moves: "Was möglich ist", space: "Feld", coinNow: "Die Münze wurde geworfen: was zeigt sie?",
    "step 1": "1 Schritt", "step 2": "2 Schritte", flip: "Münze werfen", "coin heads": "Kopf: +3", "coin tails": "Zahl: +0",
    unavailable: "nicht möglich", winner: "{p} hat Feld {goal} erreicht",
  },
};
const CLAUSES = {
  "T-1": ["one decision per turn, in seat order", "ein Entschluss je Zug, reihum"],
  "T-2": ["step 1 or 2 spaces", "1 oder 2 Felder vorrücken"],
  "T-3": ["no 'step 2' one short of the goal", "kein „step 2“ ein Feld vor dem Ziel"],
  "T-4": ["the table reports the coin", "der Tisch meldet die Münze"],
  "T-5": ["the race ends at the goal", "der Wettlauf endet am Ziel"],
};
const LAYOUT = `<div class="cols">
  <div class="col" data-camera-slot>
    <section id="toy-status" class="card"></section>
    <section id="toy-moves" class="card"></section>
  </div>
  <div class="col">
    <section id="toy-track" class="card"></section>
    <div data-widget="chart"></div>
    <div data-widget="log"></div>
  </div>
</div>`;
const testid = (move) => "move-" + move.replaceAll(" ", "-");

export function mount(shell) {
  const { t, h, dot } = shell;
  const root = shell.root;
  const $ = (sel) => root.querySelector(sel);
  const clause = (c) => { const w = CLAUSES[c]; return w ? w[shell.lang === "de" ? 1 : 0] : ""; };

  function render() {
    const live = shell.view;
    if (!live.has_game) {
      $("#toy-status").innerHTML = shell.noGame();
      $("#toy-moves").innerHTML = "";
      $("#toy-track").innerHTML = "";
      return;
    }
    const v = shell.shown();
    const pos = v.position;
    const p = v.prompt;
    const seat = pos.to_move;
    // who is to move (the table for the coin), or the ranking
    let status;
    if (v.over) {
      const first = v.ranking[0];
      status = `<div class="who"><span data-testid="to-move">${h(t("gameOver"))}</span></div>
        <p>${h(t("winner", { p: first.name, goal: v.goal }))}</p>
        <h2>${h(t("finalRanking"))}</h2><ol class="ranking" data-testid="ranking">${v.ranking.map((r) => `<li>${dot(shell.pcol(r.seat))} ${h(r.name)}: ${r.score}</li>`).join("")}</ol>`;
    } else {
      const name = pos.players[seat].name;
      status = `<div class="who">${dot(pos.players[seat].colour)}<span data-testid="to-move">${h(name)}</span>
        <span class="muted">${h(p.chance ? t("table") : t("toMove"))}</span></div>`;
    }
    $("#toy-status").innerHTML = status + shell.warnings();
    // the race track: one row per player, the goal at the end
    const cells = (space) => Array.from({ length: v.goal + 1 }, (_, i) => `<td class="${i === space ? "total" : "muted"}">${i === space ? "●" : i}</td>`).join("");
    $("#toy-track").innerHTML = `<h2>${h(t("race", { goal: v.goal }))}</h2><table>${pos.players.map((pl, i) =>
      `<tr data-testid="toy-row-${i}"><td>${dot(pl.colour)} ${h(pl.name)}</td><td data-testid="toy-space-${i}">${pl.space}</td>${cells(Math.min(pl.space, v.goal))}</tr>`).join("")}</table>`;
    // what can be done: a button per legal move (decisions, or the coin's two outcomes), the rest with the reason
    let moves = `<h2>${h(t("moves"))}</h2>`;
    if (shell.live && !v.over) {
      if (p.chance) moves += `<p>${h(t("coinNow"))}</p>`;
      moves += v.legal.map((m) => `<button class="act" data-move="${h(m)}" data-testid="${h(testid(m))}">${h(t(m))}</button>`).join("");
      for (const o of p.options || []) {
        if (o.available) continue;
        const w = clause(o.clause);
        moves += `<div data-testid="why-${h(testid(o.move).slice(5))}"><span>${h(t(o.move))}</span> — ${h(t("unavailable"))}<div class="reason"><b>${h(o.clause)}</b>${w ? ` (${h(w)})` : ""}: ${h(o.reason)}</div></div>`;
      }
    }
    $("#toy-moves").innerHTML = moves + `<div data-widget="controls"></div>`;
    shell.placeWidgets($("#toy-moves"));
  }

  async function onClick(ev) {
    const el = ev.target.closest("[data-move]");
    if (!el || !root.contains(el)) return;
    el.disabled = true;
    await shell.submitMove(el.dataset.move);
  }

  root.innerHTML = LAYOUT;
  shell.listen("click", onClick);
  return { strings: STRINGS, clause, render };
}
