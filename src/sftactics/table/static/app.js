// The battle map of the live table: plain JavaScript, no build step. It draws what the server sends this seat
// (GET state), asks the board questions (GET query/...), sends commands (POST commands) and follows the events
// over a WebSocket. See docs/table.md.
"use strict";

const S = 32; // pixels per square
const FEATURE = { SOLID: 1, DIFFICULT: 2, IMPASSABLE: 4, LOW: 8, COVER: 16, SOFT: 32, CONCEAL: 64, OBSCURE: 128 };
const tableId = location.pathname.split("/").filter(Boolean).pop();
const token = new URLSearchParams(location.search).get("token") || "";
const api = (p) => `/api/tables/${tableId}/${p}${p.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;

let state = null;       // the seat's view of the fight
let selected = null;    // the selected combatant's id
let marks = [];         // highlighted squares: {x, y, cls}
let pendingMove = null; // {actor, to, path}
let cursor = { x: 0, y: 0 };
let lastSeq = 0;        // the last event this page has seen
let facing = {};        // combatant -> [dx, dy] of its last step
const svgNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

function el(tag, attrs, parent) {
  const e = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function say(text, ok) {
  const s = $("status");
  s.textContent = text;
  s.className = ok ? "ok" : "";
}

async function getJSON(path) {
  const r = await fetch(api(path));
  const body = await r.json();
  if (!r.ok) throw body;
  return body;
}

async function postJSON(path, data) {
  const r = await fetch(api(path), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });
  const body = await r.json();
  if (!r.ok) throw body;
  return body;
}

function refusal(err) {
  if (err && err.error === "rule") return `Refused: ${err.message} [${err.rule}]`;
  if (err && err.message) return `Refused (${err.error}): ${err.message}`;
  return `Refused: ${JSON.stringify(err)}`;
}

// ------------------------------------------------------------------------------------------ drawing the map
function cellFill(flags, light) {
  let c = "#4a505c";
  if (flags & FEATURE.SOLID) c = "#15171c";
  else if (flags & FEATURE.IMPASSABLE) c = "#3a2020";
  else if (flags & FEATURE.COVER) c = "#7a6a4a";
  else if (flags & FEATURE.LOW) c = "#6a6a7a";
  else if (flags & FEATURE.DIFFICULT) c = "#4d6650";
  else if (flags & (FEATURE.CONCEAL | FEATURE.OBSCURE)) c = "#5d6d7d";
  return c;
}

function draw() {
  const svg = $("map");
  svg.innerHTML = "";
  const m = state.map || { width: 12, height: 8, cells: [], walls: [], windows: [], light: null };
  svg.setAttribute("viewBox", `0 0 ${m.width * S} ${m.height * S}`);
  const zoom = Math.max(1, Math.min(2, 640 / (m.width * S))); // small maps drawn larger
  svg.setAttribute("width", m.width * S * zoom);
  svg.setAttribute("height", m.height * S * zoom);
  const cells = el("g", {}, svg);
  for (let y = 0; y < m.height; y++) {
    for (let x = 0; x < m.width; x++) {
      const i = y * m.width + x;
      const r = el("rect", { x: x * S, y: y * S, width: S, height: S, class: "cell", fill: cellFill(m.cells[i] || 0), "data-x": x, "data-y": y }, cells);
      r.addEventListener("click", () => squareClicked(x, y));
      if (m.light) {
        const lv = m.light[i];
        if (lv === 0) el("rect", { x: x * S, y: y * S, width: S, height: S, fill: "rgba(0,0,20,.55)", "pointer-events": "none" }, cells);
        else if (lv === 1) el("rect", { x: x * S, y: y * S, width: S, height: S, fill: "rgba(0,0,20,.28)", "pointer-events": "none" }, cells);
        else if (lv === 3) el("rect", { x: x * S, y: y * S, width: S, height: S, fill: "rgba(255,255,200,.12)", "pointer-events": "none" }, cells);
      }
    }
  }
  for (const mk of marks) el("rect", { x: mk.x * S + 2, y: mk.y * S + 2, width: S - 4, height: S - 4, class: mk.cls }, svg);
  const edges = (list, cls) => {
    for (const [x, y, o] of list) {
      if (o === 0) el("line", { x1: x * S, y1: y * S, x2: x * S, y2: (y + 1) * S, class: cls }, svg);
      else el("line", { x1: x * S, y1: y * S, x2: (x + 1) * S, y2: y * S, class: cls }, svg);
    }
  };
  edges(m.walls, "wall");
  edges(m.windows, "window");
  for (const c of state.combatants) if (c.position && !c.fled) drawToken(svg, c);
  el("rect", { x: cursor.x * S + 1, y: cursor.y * S + 1, width: S - 2, height: S - 2, class: "cursor" }, svg);
}

function sideColour(c) {
  const first = (state.combatants[0] || {}).side;
  if (state.gm) return c.side === first ? "#2f6fd6" : "#c0392b";
  if (state.mine.includes(c.id)) return "#2f6fd6";
  return c.side === state.side ? "#3f9f5f" : "#c0392b";
}

function drawToken(svg, c) {
  const n = c.side_squares, [x, y] = c.position;
  const g = el("g", { class: "token" + (c.out ? " out" : "") + (selected === c.id ? " selected" : ""), tabindex: 0,
    role: "button", "data-id": c.id, "aria-label": `${c.id} (${c.side}, ${c.status})` }, svg);
  const cx = (x + n / 2) * S, cy = (y + n / 2) * S, r = (n * S) / 2 - 3;
  el("circle", { cx, cy, r, fill: sideColour(c), class: "body" }, g);
  const f = facing[c.id];
  if (f) el("line", { x1: cx, y1: cy, x2: cx + f[0] * r, y2: cy + f[1] * r, stroke: "#f6c945", "stroke-width": 3 }, g);
  const t = el("text", { x: cx, y: cy }, g);
  t.textContent = c.id.slice(0, n > 1 ? 8 : 3);
  if (c.conditions.length) {
    const ct = el("text", { x: cx, y: y * S + n * S - 5, class: "cond" }, g);
    ct.textContent = c.conditions.map((k) => k.name).join(",").slice(0, 12 * n);
  }
  g.addEventListener("click", (ev) => { ev.stopPropagation(); tokenClicked(c.id); });
  g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); tokenClicked(c.id); } });
  g.addEventListener("pointerdown", (ev) => { if (mayCommand(c.id)) { dragFrom = c.id; ev.preventDefault(); } });
}

let dragFrom = null;
document.addEventListener("pointerup", (ev) => {
  if (!dragFrom) return;
  const from = dragFrom;
  dragFrom = null;
  const target = document.elementFromPoint(ev.clientX, ev.clientY);
  if (target && target.dataset && target.dataset.x !== undefined) {
    selected = from;
    squareClicked(+target.dataset.x, +target.dataset.y);
  }
});

// ------------------------------------------------------------------------------------------ the side panel
function combatant(id) { return state.combatants.find((c) => c.id === id); }
function mayCommand(id) { return state.gm || state.mine.includes(id); }
function current() { return state.turn && state.turn !== "?" ? state.turn : state.pending; }

function panels() {
  $("title").textContent = state.name;
  $("who").textContent = state.gm ? "GM" : `Seat ${state.seat} (${state.mine.join(", ")})`;
  $("round").textContent = state.phase === "setup" ? "not begun" : `round ${state.round} (${state.phase})` + (state.result ? ` - over: ${state.result.reason}` : "");
  $("gm-tools").hidden = !state.gm;
  $("begin").hidden = state.phase !== "setup";
  $("dice-label").hidden = !(state.gm || (state.settings && state.settings.typed_dice));
  const tr = $("tracker");
  tr.innerHTML = "";
  for (const id of state.order) {
    const c = combatant(id);
    const li = document.createElement("li");
    li.textContent = `${id}${c && c.initiative !== null ? " (" + c.initiative + ")" : ""} - ${c ? statusText(c) : ""}`;
    if (id === current()) li.className = "current";
    if (c && c.out) li.className += " out";
    tr.appendChild(li);
  }
  showSelected();
  actionButtons();
}

function statusText(c) {
  if (c.pools) return `${c.pools.sp}/${c.pools.max_sp} SP, ${c.pools.hp}/${c.pools.max_hp} HP`;
  return c.status;
}

function showSelected() {
  const box = $("selected");
  const c = selected && combatant(selected);
  if (!c) { box.textContent = "Click a token (or Tab to it and press Enter)."; return; }
  const conds = c.conditions.map((k) => k.name + (k.rounds ? ` (${k.rounds} rd)` : "")).join(", ") || "none";
  box.textContent = `${c.id} (${c.side}, ${c.size}): ${statusText(c)}; conditions: ${conds}` + (c.effects.length ? `; effects: ${c.effects.join(", ")}` : "");
}

async function actionButtons() {
  const box = $("actions");
  box.innerHTML = "";
  const who = current();
  if (!who || who === "?" || !mayCommand(who) || state.result) {
    box.textContent = who && who !== "?" ? `Waiting for ${who}.` : "";
    return;
  }
  let acts;
  try { acts = await getJSON(`actions?actor=${encodeURIComponent(who)}`); } catch (e) { box.textContent = refusal(e); return; }
  box.innerHTML = "";
  const head = document.createElement("p");
  head.textContent = `${who}: ${acts.remaining.join(", ") || "no actions left"}` + (acts.can_move ? " - click a square to move" : "");
  box.appendChild(head);
  for (const a of acts.attacks) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = "attack";
    b.dataset.target = a.target;
    b.textContent = `Attack ${a.target} (${a.weapon}, ${Math.round(a.chance * 100)}%: +${a.bonus} vs AC ${a.ac}${a.cover !== "none" ? ", " + a.cover : ""})`;
    b.addEventListener("click", () => send({ type: "attack", actor: who, target: a.target, weapon: a.weapon }));
    box.appendChild(b);
  }
  for (const t of acts.simple) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = t;
    b.textContent = t.replace(/_/g, " ");
    b.addEventListener("click", () => send({ type: t, actor: who }));
    box.appendChild(b);
  }
}

// ------------------------------------------------------------------------------------------ acting
async function tokenClicked(id) {
  selected = id;
  const c = combatant(id);
  if (c && c.position) cursor = { x: c.position[0], y: c.position[1] };
  pendingMove = null;
  $("preview").hidden = true;
  marks = [];
  try {
    const threat = await getJSON(`query/threat?id=${encodeURIComponent(id)}`);
    marks = threat.value.map(([x, y]) => ({ x, y, cls: "mark-threat" }));
    const reach = await getJSON(`query/reach?id=${encodeURIComponent(id)}`);
    say(`${id}: ${threat.lines.join("; ")}; ${reach.lines.join("; ")}`, true);
  } catch (e) { say(refusal(e)); }
  draw();
  showSelected();
  const g = document.querySelector(`.token[data-id="${CSS.escape(id)}"]`);
  if (g) g.focus();
}

async function squareClicked(x, y) {
  cursor = { x, y };
  const who = selected && mayCommand(selected) ? selected : null;
  if (!who) { draw(); return; }
  try {
    const p = await getJSON(`query/path?id=${encodeURIComponent(who)}&to=${x},${y}`);
    const prov = await getJSON(`query/provoked?id=${encodeURIComponent(who)}&to=${x},${y}`);
    const v = p.value;
    marks = v.squares.slice(1).map(([a, b]) => ({ x: a, y: b, cls: "mark-path" }));
    for (const pr of prov.value.provocations) marks.push({ x: pr.leaves[0], y: pr.leaves[1], cls: "mark-aoo" });
    const aoo = prov.value.provocations.map((q) => q.enemy);
    pendingMove = { actor: who, to: [x, y] };
    $("preview-text").textContent = `${who} to ${x},${y}: ${v.cost_ft} ft of ${v.budget_ft} ft` +
      (aoo.length ? `; provokes attacks of opportunity from ${aoo.join(", ")}` : "; provokes nothing");
    $("preview").hidden = false;
    $("confirm").focus();
  } catch (e) {
    pendingMove = null;
    $("preview").hidden = true;
    say(refusal(e));
  }
  draw();
}

async function confirmMove() {
  if (!pendingMove) return;
  const m = pendingMove;
  pendingMove = null;
  $("preview").hidden = true;
  marks = [];
  await send({ type: "move", actor: m.actor, to: m.to });
}

function cancel() {
  pendingMove = null;
  $("preview").hidden = true;
  marks = [];
  $("terms").hidden = true;
  draw();
}

function typedDice() {
  const t = $("dice").value.trim();
  if (!t) return [];
  return t.split(/[\s,]+/).filter(Boolean).map((v) => parseInt(v, 10));
}

async function send(command) {
  try {
    const dice = typedDice();
    const r = await postJSON("commands", { command, seq: state.seq, dice });
    $("dice").value = "";
    say(`${command.type}: done (event ${r.seq})`, true);
  } catch (e) {
    say(refusal(e));
  }
  await refresh();
}

// ------------------------------------------------------------------------------------------ the log
function chips(data, out) {
  if (Array.isArray(data)) { for (const v of data) chips(v, out); return out; }
  if (data && typeof data === "object") {
    if (typeof data.total === "number" && Array.isArray(data.terms) && data.terms.length) out.push(data);
    for (const v of Object.values(data)) chips(v, out);
  }
  return out;
}

function showTerms(b) {
  const box = $("terms");
  box.innerHTML = "";
  const h = document.createElement("strong");
  h.textContent = `${b.label || "total"} = ${b.total}`;
  box.appendChild(h);
  const t = document.createElement("table");
  for (const term of b.terms) {
    const tr = t.insertRow();
    for (const v of [(term.value >= 0 ? "+" : "") + term.value, term.label, term.type, term.rule, term.source]) tr.insertCell().textContent = v || "";
  }
  for (const term of b.suppressed || []) {
    const tr = t.insertRow();
    tr.style.opacity = ".6";
    for (const v of [`(${term.value})`, term.label, "not counted", term.rule, term.why || ""]) tr.insertCell().textContent = v || "";
  }
  box.appendChild(t);
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "Close (Esc)";
  close.addEventListener("click", () => { box.hidden = true; });
  box.appendChild(close);
  box.hidden = false;
  close.focus();
}

function logEvents(events) {
  const log = $("log");
  for (const e of events) {
    if (e.type === "moved" && e.path && e.path.length > 1) {
      const a = e.path[e.path.length - 2], b = e.path[e.path.length - 1];
      facing[e.id] = [Math.sign(b[0] - a[0]) * 0.7, Math.sign(b[1] - a[1]) * 0.7];
    }
    if (!e.lines || !e.lines.length) continue;
    const div = document.createElement("div");
    div.className = "line";
    div.dataset.seq = e.seq;
    div.textContent = e.lines.join("\n");
    for (const b of chips(e, [])) {
      const c = document.createElement("button");
      c.type = "button";
      c.className = "chip";
      c.textContent = `${b.label ? b.label + " " : ""}${b.total}`;
      c.title = "how this number was made";
      c.addEventListener("click", () => showTerms(b));
      div.appendChild(c);
    }
    log.appendChild(div);
  }
  log.scrollTop = log.scrollHeight;
}

// ------------------------------------------------------------------------------------------ keeping up
async function refresh() {
  try {
    state = await getJSON("state");
  } catch (e) { say(refusal(e)); return; }
  if (selected && !combatant(selected)) selected = null;
  draw();
  panels();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/tables/${tableId}/ws?token=${encodeURIComponent(token)}&since=${lastSeq}`);
  const resuming = lastSeq > 0;
  let first = true;
  ws.onmessage = async (msg) => {
    const data = JSON.parse(msg.data);
    if (data.type !== "events") return;
    const fresh = first && !resuming; // a load from the start already leaves out what was undone
    first = false;
    if (!fresh && data.events.some((e) => e.type === "table_undo")) {
      // the GM took a command back: reload the log from the start (its events are no longer sent)
      $("log").innerHTML = ""; facing = {}; lastSeq = 0; ws.close(); return;
    }
    logEvents(data.events);
    lastSeq = data.seq;
    await refresh();
  };
  ws.onclose = () => setTimeout(connect, 1000); // resume from the last event seen
}

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") { cancel(); return; }
  if (ev.target && ev.target.id === "map" && state && state.map) {
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
    if (d) {
      ev.preventDefault();
      cursor = { x: Math.max(0, Math.min(state.map.width - 1, cursor.x + d[0])), y: Math.max(0, Math.min(state.map.height - 1, cursor.y + d[1])) };
      draw();
      $("map").focus();
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      const here = state.combatants.find((c) => c.position && cursor.x >= c.position[0] && cursor.x < c.position[0] + c.side_squares && cursor.y >= c.position[1] && cursor.y < c.position[1] + c.side_squares);
      if (here) tokenClicked(here.id); else squareClicked(cursor.x, cursor.y);
    }
  }
});

$("confirm").addEventListener("click", confirmMove);
$("cancel").addEventListener("click", cancel);
$("begin").addEventListener("click", () => send({ type: "begin" }));
$("undo").addEventListener("click", async () => {
  try { await postJSON("undo", { seq: state.seq }); say("undone", true); } catch (e) { say(refusal(e)); }
  await refresh();
});

refresh().then(connect);
