//! The test-only dummy expansion (the Scouts, `engine::expansions::dummy`) in JCloisterZone
//! saves: a made-up element `dummy-scouts` (JCloisterZone has no such thing) whose count
//! sets `dummy.scouts` in the mapped ruleset. Built with the `test-dummy` feature only; it is
//! the importer half of the worked example in `engine::expansions`' "Adding an expansion".

use crate::import::jcz::part::{element_count, JczPart, Mapping};
use crate::import::jcz::{JczError, Setup};

/// The Scouts' part of a save's set-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DummySetup {
    /// Scouts a game (`dummy-scouts: N`), when the element is present.
    pub scouts: Option<i64>,
}

/// The importer part of the dummy expansion.
pub struct DummyPart;

/// Its registration (in [`crate::import::jcz::parts`]).
pub static PART: DummyPart = DummyPart;

impl JczPart for DummyPart {
    fn name(&self) -> &'static str {
        "dummy"
    }
    fn elements(&self) -> &'static [&'static str] {
        &["dummy-scouts"]
    }
    fn read_element(
        &self,
        name: &str,
        v: &serde_json::Value,
        s: &mut Setup,
    ) -> Result<(), JczError> {
        let n = element_count(v)
            .filter(|n| (0..=9).contains(n))
            .ok_or_else(|| {
                JczError::new(format!(
                    "setup.elements.{name} must be a count 0..9, not {v}"
                ))
            })?;
        s.part_mut::<DummySetup>().scouts = Some(n);
        Ok(())
    }
    fn label(&self, s: &Setup) -> String {
        match s.part::<DummySetup>().scouts {
            Some(n) => format!(" + {n} scouts"),
            None => String::new(),
        }
    }
    fn ruleset_lines(&self, s: &Setup, _m: &mut Mapping) -> Result<String, String> {
        Ok(match s.part::<DummySetup>().scouts {
            Some(n) => {
                format!("dummy.scouts = {n}  source \"JCloisterZone dummy-scouts element\"\n")
            }
            None => String::new(),
        })
    }
}
