//! Request ids unique within a server session: a server may remember every id it has seen,
//! so no case reuses one, an id probe keeps its own id only once per session, and the
//! harness's `live-` ids are never given out.

use std::collections::HashSet;

use serde_json::json;

use super::{State, FIRST_ID};
use crate::fuzzing::cases::Case;
use crate::protocol::Line;

/// Gives `case`'s requests the ids `next_id`, `next_id + 1`, ... (once: a case run again
/// keeps them). An id probe keeps its own id unless `probe_ids` (the probes of this
/// session) has it already, or it falls among the ids given out.
fn assign_ids(case: &mut Case, next_id: &mut i64, probe_ids: &mut HashSet<String>) {
    if case.ids_assigned {
        return;
    }
    case.ids_assigned = true;
    let mut probes = Vec::new();
    for (i, line) in case.lines.iter_mut().enumerate() {
        let Line::Message(m) = line else { continue };
        if m.get("id").is_none() || m.get("method").is_none() {
            continue;
        }
        if case.probes.contains(&i) {
            let id = &m["id"];
            let ours = id.as_i64().is_some_and(|n| n >= FIRST_ID);
            if !ours && probe_ids.insert(id.to_string()) {
                probes.push(i);
                continue;
            }
        }
        m["id"] = json!(*next_id);
        *next_id += 1;
    }
    case.probes = probes;
}

impl State {
    /// Gives the case's requests fresh ids of this session (once: a case run again keeps
    /// them). An id probe keeps its id unless this session has used it already.
    pub(super) fn assign_ids(&mut self, case: &mut Case) {
        assign_ids(case, &mut self.next_id, &mut self.probe_ids);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzzing::cases::{decode, Tool};
    use crate::fuzzing::live::{CHECK_ID, INIT_ID, SETTLE_ID};

    /// Request ids are never reused within a session: not across cases, not by a probe
    /// that repeats an earlier probe, not by the harness's own `live-` requests.
    #[test]
    fn ids_are_unique_within_a_session() {
        let tools = vec![Tool::new("echo", &json!({"type": "object"}))];
        let mut next_id = FIRST_ID;
        let mut probe_ids = HashSet::new();
        let mut seen: HashSet<String> = [INIT_ID, SETTLE_ID, CHECK_ID]
            .iter()
            .map(|s| json!(s).to_string())
            .collect();
        let mut state = 3;
        let mut probes = 0;
        for _ in 0..20_000 {
            let mut case = decode(&crate::fuzzing::seeded_input(&mut state), &tools);
            assign_ids(&mut case, &mut next_id, &mut probe_ids);
            probes += case.probes.len();
            for id in case.lines.iter().filter_map(Line::request_id) {
                assert!(seen.insert(id.to_string()), "id {id} used twice");
            }
            // Running a case again (to confirm it) keeps its ids.
            let again = case.clone();
            assign_ids(&mut case, &mut next_id, &mut probe_ids);
            assert_eq!(case, again);
        }
        assert!(probes > 100, "id probes keep their ids ({probes})");
    }
}
