// verikit playground: one form per engine, posted as JSON to /api/<engine>; the answer (or the
// located error) is shown below the form. `?f=FORMULA` on the LTL page (and `?run=1` with the
// fields given as query parameters on every page) submits at once.
"use strict";

// A page's fields: a multi-line text, a one-line text (filled from the query parameter `param`,
// default its name), a choice among options (the first by default), a checkbox.
const text = (name, label, value) => ({ name, label, kind: "text", value });
const line = (name, label, value = "", param = undefined) => ({ name, label, kind: "line", value, param });
const choice = (name, label, options) => ({ name, label, kind: "select", options });
const check = (name, label) => ({ name, label, kind: "check" });

const PAGES = {
  ltl: {
    title: "LTL → automaton",
    help: "A formula in Spot's syntax, translated to a transition-based generalized Büchi automaton (or a state-based Büchi automaton).",
    fields: [
      line("formula", "Formula", "G(request -> F grant)", "f"),
      check("sba", "State-based Büchi automaton"),
    ],
  },
  smt: {
    title: "SMT-LIB 2.6",
    help: "A script in QF_LRA, QF_LIA, QF_RDL or QF_IDL; models and Farkas certificates are checked.",
    fields: [
      text("script", "Script", "(set-logic QF_LIA)\n(declare-const x Int)\n(declare-const y Int)\n(assert (and (> x 2) (< y 5) (= (+ x y) 9)))\n(check-sat)\n(get-model)\n"),
    ],
  },
  nfa: {
    title: "NFA inclusion and equivalence",
    help: "Two automata in .mata, BA or Timbuk format, or regular expressions (format: regex). A negative answer carries a word.",
    fields: [
      choice("question", "Question", ["incl", "equiv", "univ"]),
      choice("format", "Format", ["auto", "mata", "ba", "timbuk", "regex"]),
      text("a", "A", "@NFA-explicit\n%Alphabet-auto\n# Words over {a, b} that end with \"ab\" (nondeterministic: guesses where the suffix starts).\n%Initial q0\n%Final q2\nq0 a q0\nq0 b q0\nq0 a q1\nq1 b q2\n"),
      text("b", "B", "@NFA-explicit\n%Alphabet-auto\n# Words over {a, b} that contain an \"a\".\n%Initial p0\n%Final p1\np0 b p0\np0 a p1\np1 a p1\np1 b p1\n"),
    ],
  },
  prism: {
    title: "PRISM",
    help: "A model in the PRISM language (or JANI) and properties; constants as N=3,p=0.5.",
    fields: [
      text("model", "Model", "dtmc\n\nmodule coin\n  s : [0..2] init 0;\n  [] s=0 -> 0.5 : (s'=1) + 0.5 : (s'=2);\n  [] s>0 -> (s'=s);\nendmodule\n\nlabel \"heads\" = s=1;\n"),
      text("properties", "Properties", "P=? [ F \"heads\" ]\n"),
      line("constants", "Constants"),
      line("property", "Property (name or number, comma list; empty: all)"),
    ],
  },
  bn: {
    title: "Boolean networks",
    help: "A network in .bnet (or aeon, sbml): attractors under the synchronous semantics, or fixed points.",
    fields: [
      choice("question", "Question", ["attractors", "fixed-points"]),
      choice("format", "Format", ["auto", "bnet", "aeon", "sbml"]),
      text("network", "Network", "# SETTA'17 (Mizera, Pang, Qu, Yuan), Example 5 / Fig. 2a: four SCC blocks, six attractors.\ntargets, factors\nx1, x1 & x2\nx2, x1 | !x2\nx3, !x4 & x3\nx4, x1 | x3\nx5, x2 & x6\nx6, x5 & x6\nx7, (x1 | x6) & x8\nx8, x7 | x8\n"),
    ],
  },
};

const $ = (id) => document.getElementById(id);

function build(page, params) {
  const box = $("fields");
  for (const f of page.fields) {
    const id = "f-" + f.name;
    const given = params.get(f.param || f.name);
    if (f.kind === "check") {
      const l = document.createElement("label");
      const c = document.createElement("input");
      c.type = "checkbox";
      c.id = id;
      c.checked = given === "1" || given === "true";
      l.append(c, " " + f.label);
      box.append(l);
      continue;
    }
    const l = document.createElement("label");
    l.htmlFor = id;
    l.textContent = f.label;
    let el;
    if (f.kind === "select") {
      el = document.createElement("select");
      for (const o of f.options) {
        const opt = document.createElement("option");
        opt.value = opt.textContent = o;
        el.append(opt);
      }
    } else if (f.kind === "text") {
      el = document.createElement("textarea");
      el.spellcheck = false;
    } else {
      el = document.createElement("input");
      el.type = "text";
      el.spellcheck = false;
    }
    el.id = id;
    el.value = given !== null ? given : (f.value || (f.options ? f.options[0] : ""));
    box.append(l, el);
  }
}

function collect(page) {
  const body = {};
  for (const f of page.fields) {
    const el = $("f-" + f.name);
    body[f.name] = f.kind === "check" ? el.checked : el.value;
  }
  return body;
}

function show(status, data) {
  $("result").hidden = false;
  const v = $("verdict"), err = $("error"), text = $("text"), json = $("json"), drawing = $("drawing");
  v.textContent = ""; v.className = ""; err.hidden = true; err.textContent = "";
  text.textContent = ""; json.textContent = ""; drawing.textContent = "";
  if (data.error !== undefined) {
    v.textContent = data.kind === "input" || data.kind === "usage" ? "bad input" : "error";
    v.className = "v-false";
    err.hidden = false;
    err.textContent = data.error;
    return;
  }
  const a = data.answer || {};
  const word = a.verdict || a.result || (a.relation ? a.relation : "done");
  v.textContent = word;
  v.className = "v-" + (a.verdict || "none");
  if (a.svg) {
    // The SVG is drawn by the server, which escapes every label.
    drawing.innerHTML = a.svg;
  }
  text.textContent = data.text || "";
  const shown = Object.assign({}, a);
  delete shown.svg;
  json.textContent = JSON.stringify(shown, null, 2);
}

async function submit(name, page) {
  $("status").textContent = "running…";
  $("run").disabled = true;
  try {
    const r = await fetch("/api/" + name, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(collect(page)),
    });
    const data = await r.json().catch(() => ({ kind: "http", error: "HTTP " + r.status }));
    show(r.status, data);
    $("status").textContent = "";
  } catch (e) {
    $("status").textContent = "request failed: " + e;
  } finally {
    $("run").disabled = false;
  }
}

function main() {
  const name = location.pathname.replace(/^\/+|\/+$/g, "");
  for (const a of document.querySelectorAll("#nav a")) {
    if (a.getAttribute("href") === "/" + name) a.className = "current";
  }
  const page = PAGES[name];
  if (!page) return;
  $("home").hidden = true;
  $("form").hidden = false;
  $("title").textContent = page.title;
  $("help").textContent = page.help;
  const params = new URLSearchParams(location.search);
  build(page, params);
  $("form").addEventListener("submit", (e) => {
    e.preventDefault();
    submit(name, page);
  });
  if (params.get("run") === "1" || (name === "ltl" && params.has("f"))) submit(name, page);
}

main();
