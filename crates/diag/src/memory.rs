//! The process's peak memory, reported in every command's JSON statistics
//! (`stats.peak_memory_mib`) as the peers report theirs (TChecker's `MEMORY_MAX_RSS`, SPIN's
//! "total actual memory usage", Storm's "Memory").

/// The peak resident set size of this process in MiB (`VmHWM` of `/proc/self/status`), or `None`
/// where the operating system does not say (then the statistic is left out, never guessed).
pub fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_vm_hwm(&status)
}

/// `VmHWM:   123456 kB` → MiB.
fn parse_vm_hwm(status: &str) -> Option<f64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let mut words = line["VmHWM:".len()..].split_whitespace();
    let kib: f64 = words.next()?.parse().ok()?;
    (words.next()? == "kB").then_some(kib / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_status_line() {
        let s = "Name:\tverikit\nVmPeak:\t  99 kB\nVmHWM:\t   2048 kB\nVmRSS:\t 1024 kB\n";
        assert_eq!(parse_vm_hwm(s), Some(2.0));
        assert_eq!(parse_vm_hwm("VmHWM: 12 MB\n"), None);
        assert_eq!(parse_vm_hwm("VmRSS: 12 kB\n"), None);
    }

    #[test]
    fn reads_this_process_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(peak_memory_mib().is_some_and(|m| m > 0.0));
        }
    }
}
