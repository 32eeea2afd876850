//! SBML-qual (SBML Level 3 Qualitative Models), read with quick-xml. Front end for the SETTA'17
//! engine (Mizera et al., Sect. 2.1, Boolean networks as in Definition 1).
//!
//! `qual:qualitativeSpecies` are the variables (Boolean: `maxLevel` ≤ 1). Each `qual:transition`
//! names its output species and gives `qual:functionTerm`s with a `resultLevel` and a MathML
//! condition, plus a `qual:defaultTerm`. With default level 0 the update function is the
//! disjunction of the conditions of level-1 terms; with default 1 it is the negation of the
//! disjunction of the level-0 conditions. MathML: `apply` with `and or not xor implies` and the
//! comparisons `eq neq geq gt leq lt` between a `ci` (species) and a `cn` threshold, read for
//! Boolean levels (`x ≥ 1`, `x > 0`, `x = 1`, `x ≠ 0` mean `x`; `x = 0`, `x < 1`, `x ≤ 0`, `x ≠ 1`
//! mean `!x`), and `true`/`false`. A species without a transition is a free input.

use crate::network::Network;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::collections::HashMap;
use verikit_diag::{Diagnostic, Span};
use verikit_logic::BoolExpr;

/// A minimal element tree (local names, attributes by local name, text, start offset).
#[derive(Debug, Default)]
struct Elem {
    name: String,
    attrs: HashMap<String, String>,
    children: Vec<Elem>,
    text: String,
    at: usize,
}

impl Elem {
    fn attr(&self, k: &str) -> Option<&str> {
        self.attrs.get(k).map(|s| s.as_str())
    }
    fn find<'a>(&'a self, name: &str, out: &mut Vec<&'a Elem>) {
        for c in &self.children {
            if c.name == name {
                out.push(c);
            }
            c.find(name, out);
        }
    }
    fn span(&self) -> Span {
        Span::new(self.at, self.at + 1 + self.name.len())
    }
}

fn open(e: &BytesStart<'_>, at: usize) -> Result<Elem, Diagnostic> {
    let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
    let mut attrs = HashMap::new();
    for a in e.attributes() {
        let a =
            a.map_err(|err| Diagnostic::at(Span::point(at), format!("bad XML attribute: {err}")))?;
        let k = String::from_utf8_lossy(a.key.local_name().as_ref()).into_owned();
        let v = a.unescape_value().map_err(|err| {
            Diagnostic::at(Span::point(at), format!("bad XML attribute value: {err}"))
        })?;
        attrs.insert(k, v.into_owned());
    }
    Ok(Elem {
        name,
        attrs,
        children: Vec::new(),
        text: String::new(),
        at,
    })
}

fn tree(text: &str) -> Result<Elem, Diagnostic> {
    let mut r = Reader::from_str(text);
    r.config_mut().trim_text(true);
    let mut stack: Vec<Elem> = vec![Elem {
        name: "#document".into(),
        ..Elem::default()
    }];
    loop {
        let at = r.buffer_position() as usize;
        let ev = r.read_event().map_err(|e| {
            Diagnostic::at(
                Span::point(r.buffer_position() as usize),
                format!("XML error: {e}"),
            )
        })?;
        match ev {
            Event::Start(e) => {
                let el = open(&e, at)?;
                if stack.len() > 2000 {
                    return Err(Diagnostic::at(Span::point(at), "XML nested too deeply"));
                }
                stack.push(el);
            }
            Event::Empty(e) => {
                let el = open(&e, at)?;
                if let Some(top) = stack.last_mut() {
                    top.children.push(el);
                }
            }
            Event::End(_) => {
                let el = stack
                    .pop()
                    .ok_or_else(|| Diagnostic::at(Span::point(at), "unbalanced XML"))?;
                match stack.last_mut() {
                    Some(top) => top.children.push(el),
                    None => return Err(Diagnostic::at(Span::point(at), "unbalanced XML")),
                }
            }
            Event::Text(t) => {
                let s = t
                    .unescape()
                    .map_err(|e| Diagnostic::at(Span::point(at), format!("XML error: {e}")))?;
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&s);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        return Err(Diagnostic::at(
            Span::point(text.len()),
            "unexpected end of the XML document",
        ));
    }
    stack
        .pop()
        .ok_or_else(|| Diagnostic::error("empty XML document"))
}

/// Parses an SBML-qual document.
pub(crate) fn parse(text: &str) -> Result<Network, Diagnostic> {
    let doc = tree(text)?;
    let mut species = Vec::new();
    doc.find("qualitativeSpecies", &mut species);
    if species.is_empty() {
        return Err(Diagnostic::error(
            "no qual:qualitativeSpecies: not an SBML-qual model",
        ));
    }
    let mut net = Network::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for s in &species {
        let id = s
            .attr("id")
            .ok_or_else(|| Diagnostic::at(s.span(), "qualitativeSpecies without an id"))?;
        if let Some(max) = s.attr("maxLevel") {
            if max.trim().parse::<u32>().map_or(true, |m| m > 1) {
                return Err(Diagnostic::at(
                    s.span(),
                    format!("species `{id}` has maxLevel {max}: only Boolean (maxLevel 1) models are supported"),
                ));
            }
        }
        if index.insert(id.to_string(), net.names.len()).is_some() {
            return Err(Diagnostic::at(
                s.span(),
                format!("duplicate species `{id}`"),
            ));
        }
        net.names.push(id.to_string());
    }
    let n = net.names.len();
    net.functions = vec![None; n];
    net.spans = vec![None; n];
    let mut transitions = Vec::new();
    doc.find("transition", &mut transitions);
    for t in transitions {
        let mut outs = Vec::new();
        t.find("output", &mut outs);
        let mut default = None;
        let mut terms: Vec<(u32, BoolExpr)> = Vec::new();
        let mut defs = Vec::new();
        t.find("defaultTerm", &mut defs);
        if let Some(d) = defs.first() {
            default = Some(level(d)?);
        }
        let mut fts = Vec::new();
        t.find("functionTerm", &mut fts);
        for ft in fts {
            let lvl = level(ft)?;
            let math = ft
                .children
                .iter()
                .find(|c| c.name == "math")
                .and_then(|m| m.children.first())
                .ok_or_else(|| {
                    Diagnostic::at(ft.span(), "functionTerm without a MathML condition")
                })?;
            terms.push((lvl, mathml(math, &index)?));
        }
        let default = default.unwrap_or(0);
        let f = if default == 0 {
            BoolExpr::Or(
                terms
                    .iter()
                    .filter(|t| t.0 >= 1)
                    .map(|t| t.1.clone())
                    .collect(),
            )
        } else {
            BoolExpr::not(BoolExpr::Or(
                terms
                    .iter()
                    .filter(|t| t.0 == 0)
                    .map(|t| t.1.clone())
                    .collect(),
            ))
        };
        for o in outs {
            let id = o.attr("qualitativeSpecies").ok_or_else(|| {
                Diagnostic::at(o.span(), "output without qual:qualitativeSpecies")
            })?;
            let &i = index
                .get(id)
                .ok_or_else(|| Diagnostic::at(o.span(), format!("unknown species `{id}`")))?;
            if net.functions[i].is_some() {
                return Err(Diagnostic::at(
                    o.span(),
                    format!("species `{id}` is the output of two transitions"),
                ));
            }
            net.functions[i] = Some(f.clone());
            net.spans[i] = Some(t.span());
        }
    }
    Ok(net)
}

fn level(e: &Elem) -> Result<u32, Diagnostic> {
    let v = e
        .attr("resultLevel")
        .ok_or_else(|| Diagnostic::at(e.span(), "missing qual:resultLevel"))?;
    match v.trim().parse::<u32>() {
        Ok(l) if l <= 1 => Ok(l),
        _ => Err(Diagnostic::at(
            e.span(),
            format!("result level `{v}` is not Boolean"),
        )),
    }
}

fn mathml(e: &Elem, index: &HashMap<String, usize>) -> Result<BoolExpr, Diagnostic> {
    match e.name.as_str() {
        "true" => return Ok(BoolExpr::Const(true)),
        "false" => return Ok(BoolExpr::Const(false)),
        "ci" => {
            let id = e.text.trim();
            let &i = index
                .get(id)
                .ok_or_else(|| Diagnostic::at(e.span(), format!("unknown variable `{id}`")))?;
            return Ok(BoolExpr::Var(i as u32));
        }
        "apply" => {}
        other => {
            return Err(Diagnostic::at(
                e.span(),
                format!("unsupported MathML element `{other}`"),
            ))
        }
    }
    let op = e
        .children
        .first()
        .ok_or_else(|| Diagnostic::at(e.span(), "empty MathML apply"))?;
    let args = &e.children[1..];
    let sub = |k: &Elem| mathml(k, index);
    Ok(match op.name.as_str() {
        "and" => BoolExpr::And(args.iter().map(sub).collect::<Result<_, _>>()?),
        "or" => BoolExpr::Or(args.iter().map(sub).collect::<Result<_, _>>()?),
        "not" if args.len() == 1 => BoolExpr::not(sub(&args[0])?),
        "xor" if args.len() == 2 => {
            BoolExpr::Xor(Box::new(sub(&args[0])?), Box::new(sub(&args[1])?))
        }
        "implies" if args.len() == 2 => {
            BoolExpr::Imp(Box::new(sub(&args[0])?), Box::new(sub(&args[1])?))
        }
        "eq" | "neq" | "geq" | "gt" | "leq" | "lt" if args.len() == 2 => {
            compare(op, &args[0], &args[1], index)?
        }
        other => {
            return Err(Diagnostic::at(
                op.span(),
                format!("unsupported MathML operator `{other}`"),
            ))
        }
    })
}

fn compare(
    op: &Elem,
    a: &Elem,
    b: &Elem,
    index: &HashMap<String, usize>,
) -> Result<BoolExpr, Diagnostic> {
    // Normalise to `x OP c`.
    let (var, cst, flipped) = match (a.name.as_str(), b.name.as_str()) {
        ("ci", "cn") => (a, b, false),
        ("cn", "ci") => (b, a, true),
        _ => {
            return Err(Diagnostic::at(
                op.span(),
                "comparisons must be between a species (ci) and a number (cn)",
            ))
        }
    };
    let x = mathml(var, index)?;
    let c: i64 = cst.text.trim().parse().map_err(|_| {
        Diagnostic::at(
            cst.span(),
            format!("`{}` is not an integer", cst.text.trim()),
        )
    })?;
    let op = match (op.name.as_str(), flipped) {
        (o, false) => o.to_string(),
        ("geq", true) => "leq".into(),
        ("gt", true) => "lt".into(),
        ("leq", true) => "geq".into(),
        ("lt", true) => "gt".into(),
        (o, true) => o.to_string(),
    };
    // For x ∈ {0, 1}: the set of values satisfying `x op c`.
    let holds = |v: i64| match op.as_str() {
        "eq" => v == c,
        "neq" => v != c,
        "geq" => v >= c,
        "gt" => v > c,
        "leq" => v <= c,
        _ => v < c,
    };
    Ok(match (holds(0), holds(1)) {
        (false, false) => BoolExpr::Const(false),
        (true, true) => BoolExpr::Const(true),
        (false, true) => x,
        (true, false) => BoolExpr::not(x),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<sbml xmlns="http://www.sbml.org/sbml/level3/version1/core" xmlns:qual="http://www.sbml.org/sbml/level3/version1/qual/version1" level="3" version="1" qual:required="true">
  <model id="m">
    <qual:listOfQualitativeSpecies>
      <qual:qualitativeSpecies qual:id="A" qual:maxLevel="1" qual:constant="false"/>
      <qual:qualitativeSpecies qual:id="B" qual:maxLevel="1" qual:constant="false"/>
      <qual:qualitativeSpecies qual:id="U" qual:maxLevel="1" qual:constant="false"/>
    </qual:listOfQualitativeSpecies>
    <qual:listOfTransitions>
      <qual:transition qual:id="tA">
        <qual:listOfInputs><qual:input qual:qualitativeSpecies="B" qual:transitionEffect="none"/></qual:listOfInputs>
        <qual:listOfOutputs><qual:output qual:qualitativeSpecies="A" qual:transitionEffect="assignmentLevel"/></qual:listOfOutputs>
        <qual:listOfFunctionTerms>
          <qual:defaultTerm qual:resultLevel="0"/>
          <qual:functionTerm qual:resultLevel="1">
            <math xmlns="http://www.w3.org/1998/Math/MathML">
              <apply><and/>
                <apply><eq/><ci> B </ci><cn type="integer">0</cn></apply>
                <apply><geq/><ci>U</ci><cn type="integer">1</cn></apply>
              </apply>
            </math>
          </qual:functionTerm>
        </qual:listOfFunctionTerms>
      </qual:transition>
      <qual:transition qual:id="tB">
        <qual:listOfOutputs><qual:output qual:qualitativeSpecies="B"/></qual:listOfOutputs>
        <qual:listOfFunctionTerms>
          <qual:defaultTerm qual:resultLevel="1"/>
          <qual:functionTerm qual:resultLevel="0">
            <math xmlns="http://www.w3.org/1998/Math/MathML"><apply><lt/><cn>1</cn><ci>A</ci></apply></math>
          </qual:functionTerm>
        </qual:listOfFunctionTerms>
      </qual:transition>
    </qual:listOfTransitions>
  </model>
</sbml>"#;

    #[test]
    fn reads_sbml_qual() {
        let n = parse(SAMPLE).unwrap();
        assert_eq!(n.names, vec!["A", "B", "U"]);
        assert_eq!(n.inputs(), vec![2]);
        let fa = n.functions[0].as_ref().unwrap();
        // A = !B & U
        assert!(fa.eval_bits(0b100));
        assert!(!fa.eval_bits(0b110));
        // B = !(1 < A) = true
        let fb = n.functions[1].as_ref().unwrap();
        assert!(fb.eval_bits(0b001) && fb.eval_bits(0));
    }

    #[test]
    fn errors() {
        assert!(parse("<sbml><model/></sbml>").is_err());
        assert!(parse(&SAMPLE.replace("<ci>U</ci>", "<ci>Z</ci>"))
            .unwrap_err()
            .message
            .contains("unknown"));
        assert!(parse(&SAMPLE.replace(
            "qual:id=\"A\" qual:maxLevel=\"1\"",
            "qual:id=\"A\" qual:maxLevel=\"2\""
        ))
        .is_err());
        assert!(parse(&SAMPLE[..SAMPLE.len() / 2]).is_err());
    }

    #[test]
    fn parser_is_total() {
        verikit_testkit::assert_parser_total(&[SAMPLE], 1500, parse);
    }
}
