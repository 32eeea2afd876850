//! The `verikit aig` and `verikit sat` commands as library calls: circuits read from AIGER files,
//! the `-x hw.*` parameters applied, the question asked within the command's budget, and the
//! requested files (witness, converted circuit, CNF, DRAT proof, core) written, never over an
//! input.

use crate::live_task::Liveness;
use crate::sat_task::{bmc_cnf, core_cnf, solve_cnf, CoreMethod, SatOptions, SatRun};
use crate::task::{check_property, info, Engine, Options};
use flate2::read::MultiGzDecoder;
use std::io::Read;
use std::path::Path;
use verikit_aiger::{parse, Aig};
use verikit_diag::{read_bytes, write_output, Answer, Ctx, Diagnostic, Failure, SourceFile};
use verikit_sat::ProofLog;

/// The bytes of an input file (`-`: standard input), decompressed when they start with gzip's
/// magic number (`.cnf.gz`, `.aig.gz`; concatenated members as `gzip -d` reads them).
fn read_gunzipped(path: &Path) -> Result<Vec<u8>, Failure> {
    let bytes = read_bytes(path)?;
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes);
    }
    let mut out = Vec::new();
    MultiGzDecoder::new(bytes.as_slice())
        .read_to_end(&mut out)
        .map_err(|e| {
            let d = Diagnostic::error(format!(
                "`{}` starts as a gzip file but does not decompress: {e}",
                path.display()
            ));
            Failure::from_error(d, None)
        })?;
    Ok(out)
}

/// A circuit from an `.aag`/`.aig` file, possibly gzip-compressed (`-`: standard input); errors
/// carry byte offsets (into the decompressed bytes).
pub fn read_aig(path: &Path) -> Result<Aig, Failure> {
    let bytes = read_gunzipped(path)?;
    parse(&path.display().to_string(), &bytes).map_err(|d| Failure::from_error(d, None))
}

/// A DIMACS CNF or group CNF text, possibly gzip-compressed (`-`: standard input).
pub fn read_cnf(path: &Path) -> Result<SourceFile, Failure> {
    let bytes = read_gunzipped(path)?;
    let name = if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    SourceFile::from_bytes(&name, bytes).map_err(Failure::from)
}

/// What `verikit aig check` asks: the engine by name, the safety property, or a liveness one.
#[derive(Clone, Debug, Default)]
pub struct CheckRequest {
    /// bmc, kind, ic3 (= pdr) or portfolio.
    pub engine: String,
    pub property: usize,
    pub justice: Option<usize>,
    pub ltl: Option<String>,
}

/// `verikit aig check`: the verdict with its replayed witness or checked certificate; an AIGER
/// witness written to `witness` when the property fails.
pub fn check_command(
    path: &Path,
    req: CheckRequest,
    witness: Option<&Path>,
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let aig = read_aig(path)?;
    let opts = Options {
        engine: Engine::parse(&req.engine).unwrap_or_default(),
        property: req.property,
        live: req
            .justice
            .map(Liveness::Justice)
            .or(req.ltl.map(Liveness::Ltl)),
        ..Options::default()
    }
    .with_params(&ctx.params)
    .map_err(Failure::Usage)?;
    let r = check_property(&aig, &opts, &ctx.budget).map_err(|d| Failure::from_error(d, None))?;
    if let (Some(out), Some(w)) = (witness, &r.witness) {
        write_output(out, w.to_text(), &[path])?;
    }
    Ok(r.answer.input("file", path.display().to_string()))
}

/// `verikit aig ste`: the STE assertions of `assertions` checked on the circuit (`-x ste.*`
/// chooses the refinement).
pub fn ste_command(path: &Path, assertions: &Path, ctx: &Ctx) -> Result<Answer, Failure> {
    let aig = read_aig(path)?;
    let src = SourceFile::read(assertions).map_err(|d| Failure::from_error(d, None))?;
    let opts = crate::ste_task::SteOptions::default()
        .with_params(&ctx.params)
        .map_err(Failure::Usage)?;
    let a = crate::ste_task::ste_text(&aig, &src, &opts, &ctx.budget)
        .map_err(|d| Failure::from_error(d, None))?;
    Ok(a.input("file", path.display().to_string()))
}

/// `verikit aig convert`: binary AIGER if `output` ends in `.aig`, ASCII otherwise.
pub fn convert_command(path: &Path, output: &Path) -> Result<Answer, Failure> {
    let aig = read_aig(path)?;
    let binary = output.extension().is_some_and(|e| e == "aig");
    if binary {
        write_output(output, aig.to_aig(), &[path])?;
    } else {
        write_output(output, aig.to_aag(), &[path])?;
    }
    let fmt = if binary { "aig" } else { "aag" };
    Ok(Answer::new()
        .detail("format", fmt)
        .line(format!("wrote {} ({fmt})", output.display())))
}

/// `verikit aig bmc-cnf`: the depth-`k` BMC instance of `property` as DIMACS, to `output` or in
/// the answer's text.
pub fn bmc_cnf_command(
    path: &Path,
    property: usize,
    k: usize,
    output: Option<&Path>,
) -> Result<Answer, Failure> {
    let cnf = bmc_cnf(&read_aig(path)?, property, k).map_err(Failure::Usage)?;
    let a = Answer::new()
        .input("variables", cnf.num_vars)
        .input("clauses", cnf.clauses.len());
    match output {
        Some(out) => {
            write_output(out, cnf.to_dimacs(), &[path])?;
            Ok(a.line(format!("wrote {}", out.display())))
        }
        None => Ok(a.line(cnf.to_dimacs().trim_end())),
    }
}

/// `verikit aig info`.
pub fn info_command(path: &Path) -> Result<Answer, Failure> {
    Ok(info(&read_aig(path)?).input("file", path.display().to_string()))
}

/// `verikit sat FILE`: the answer (and, in competition mode, the exit code the caller must use
/// after printing the answer's text), a DRAT proof written to `proof` (binary DRAT if
/// `binary_proof`).
pub fn solve_command(
    src: &SourceFile,
    proof: Option<&Path>,
    binary_proof: bool,
    competition: bool,
    backend: Option<&str>,
    ctx: &Ctx,
) -> Result<SatRun, Failure> {
    let name = match backend {
        Some(b) => b.to_string(),
        None => ctx
            .params
            .get(&crate::sat_task::SAT_PARAMS[0])
            .map_err(Failure::Usage)?,
    };
    let backend = crate::sat_task::Backend::parse(&name)
        .ok_or_else(|| Failure::Usage("-x sat.backend: expected cdcl or cadical".into()))?;
    let proof = match proof {
        Some(p) => {
            let f = std::fs::File::create(p)
                .map_err(|e| Failure::Usage(format!("cannot write `{}`: {e}", p.display())))?;
            let w = Box::new(std::io::BufWriter::new(f));
            Some(ProofLog::to_writer(w, binary_proof))
        }
        None => None,
    };
    let opts = SatOptions {
        proof,
        competition,
        backend,
    };
    let mut r =
        solve_cnf(&src.text, opts, &ctx.budget).map_err(|d| Failure::from_error(d, Some(src)))?;
    r.answer = r.answer.input("file", &src.name);
    Ok(r)
}

/// `verikit sat core`: a core by `method` (trim-till-fix, trimmer, mus, mus-rotate, proof), written to
/// `output` as a formula when asked.
pub fn core_command(
    src: &SourceFile,
    method: &str,
    output: Option<&Path>,
    ctx: &Ctx,
) -> Result<Answer, Failure> {
    let m = CoreMethod::parse(method)
        .ok_or_else(|| Failure::Usage(format!("unknown method `{method}`")))?;
    let r = core_cnf(&src.text, m, &ctx.budget).map_err(|d| Failure::from_error(d, Some(src)))?;
    if let (Some(out), Some(text)) = (output, &r.core_text) {
        write_output(out, text, &[Path::new(&src.name)])?;
    }
    Ok(r.answer.input("file", &src.name))
}
