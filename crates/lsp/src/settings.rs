//! Settings: what the client may override, from `initializationOptions` and
//! `workspace/didChangeConfiguration`.
//!
//! Layers, later ones winning: the project's `[package.metadata.botlens]` → these settings. The
//! caps on a project's limits are not among them: a workspace may carry its editor's settings,
//! so they come from `botlens lsp`'s flags and the user's config file alone.
//! Every field is optional; by default the project's own opponents, seeds and turn cap are used
//! and build errors are published. The JSON accepts camelCase (`maxTurns`, `publishBuildErrors`)
//! or snake_case names, either at the top level or under a `botlens` key (how VS Code sends a
//! section):
//!
//! ```json
//! { "botlens": { "opponents": ["hunter"], "seeds": "0..20", "maxTurns": 200, "publishBuildErrors": false } }
//! ```

use botlens_bots::caps::LimitCaps;
use botlens_harness::{RunOptions, SeedRange};
use serde::Deserialize;
use serde_json::Value;

/// The settings a client may send, for `botlens lsp --help` (one line each; every field of the
/// JSON is here, a test makes sure).
pub const SETTINGS_HELP: &str = "\
Settings (initializationOptions or workspace/didChangeConfiguration, at the top level or under
a `botlens` key; camelCase or snake_case; each overrides the project's
[package.metadata.botlens]):
  opponents           list of reference names, .wasm paths or boards [default: the project's]
  seeds               a seed range: `0..20`, `1..=50`, `7` [default: the project's]
  maxTurns            most moves per game, 1 to 100000 [default: the project's, else the game's]
  publishBuildErrors  compiler errors as diagnostics too [default: true; false beside
                      rust-analyzer, which shows them already]
Example: { \"botlens\": { \"opponents\": [\"hunter\"], \"seeds\": \"0..20\" } }";

/// The server's settings; see the module docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Opponents instead of the project's; by default the project's.
    pub opponents: Option<Vec<String>>,
    /// Seeds instead of the project's; by default the project's.
    pub seeds: Option<SeedRange>,
    /// Turn cap instead of the project's; by default the project's.
    pub max_turns: Option<u32>,
    /// Whether compiler errors become diagnostics; by default true (turn off next to
    /// rust-analyzer, which shows them already).
    pub publish_build_errors: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { opponents: None, seeds: None, max_turns: None, publish_build_errors: true }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    opponents: Option<Vec<String>>,
    #[serde(default)]
    seeds: Option<String>,
    #[serde(default, alias = "maxTurns")]
    max_turns: Option<u32>,
    #[serde(default, alias = "publishBuildErrors")]
    publish_build_errors: Option<bool>,
}

impl Settings {
    /// Reads settings from the client's JSON (null means the defaults). An empty opponent list
    /// or an empty seed string means "the project's". Bad values are refused with a message
    /// naming them.
    pub fn from_json(value: &Value) -> Result<Settings, String> {
        let value = match value {
            Value::Null => return Ok(Settings::default()),
            Value::Object(map) if map.contains_key("botlens") => &map["botlens"],
            other => other,
        };
        if value.is_null() {
            return Ok(Settings::default());
        }
        let raw = Raw::deserialize(value).map_err(|e| format!("botlens settings: {e}"))?;
        let seeds = match raw.seeds.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => {
                Some(text.parse::<SeedRange>().map_err(|e| format!("botlens settings: {e}"))?)
            }
        };
        Ok(Settings {
            opponents: raw.opponents.filter(|o| !o.is_empty()),
            seeds,
            max_turns: raw.max_turns,
            publish_build_errors: raw.publish_build_errors.unwrap_or(true),
        })
    }

    /// The harness options these settings ask for (one worker per core, failed traces kept),
    /// the project's limits within the user's `caps`.
    pub fn run_options(&self, caps: &LimitCaps) -> RunOptions {
        RunOptions {
            opponents: self.opponents.clone(),
            seeds: self.seeds,
            max_turns: self.max_turns,
            caps: caps.clone(),
            ..RunOptions::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn null_and_empty_values_mean_the_defaults() {
        assert_eq!(Settings::from_json(&Value::Null), Ok(Settings::default()));
        let empty = json!({"botlens": {"opponents": [], "seeds": ""}});
        assert_eq!(Settings::from_json(&empty), Ok(Settings::default()));
    }

    #[test]
    fn camel_and_snake_case_names_are_read_at_the_top_or_under_botlens() {
        let camel = json!({"botlens": {"opponents": ["hunter"], "seeds": "0..20", "maxTurns": 50, "publishBuildErrors": false}});
        let snake = json!({"opponents": ["hunter"], "seeds": "0..20", "max_turns": 50, "publish_build_errors": false});
        let expected = Settings {
            opponents: Some(vec!["hunter".into()]),
            seeds: Some("0..20".parse().unwrap()),
            max_turns: Some(50),
            publish_build_errors: false,
        };
        assert_eq!(Settings::from_json(&camel).as_ref(), Ok(&expected));
        assert_eq!(Settings::from_json(&snake), Ok(expected));
    }

    #[test]
    fn bad_settings_are_refused_by_name() {
        let typo = Settings::from_json(&json!({"sedes": "1"})).unwrap_err();
        assert!(typo.contains("unknown field `sedes`"), "{typo}");
        let seeds = Settings::from_json(&json!({"seeds": "9..2"})).unwrap_err();
        assert!(seeds.contains("bad seed range"), "{seeds}");
        let turns = Settings::from_json(&json!({"maxTurns": "many"})).unwrap_err();
        assert!(turns.starts_with("botlens settings: invalid type"), "{turns}");
    }
}
