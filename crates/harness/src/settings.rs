//! The settings every kind of bot declares the same way, in a Cargo package's
//! `[package.metadata.botlens]` ([`crate::project::BotConfig`]) and in a bot folder's
//! `botlens.toml` ([`crate::folder::FolderConfig`]): [`SuiteSettings`], flattened into both,
//! and `check_keys`, which refuses a key neither table has, by name and where it is.
//!
//! Not for: reading either file (see [`crate::project`] and [`crate::folder`]).

use botlens_games::GameKind;
use serde::Deserialize;

use crate::SeedRange;

/// The settings of a suite every kind of bot declares the same way, in
/// `[package.metadata.botlens]` ([`BotConfig`](crate::project::BotConfig)) and in `botlens.toml`
/// ([`FolderConfig`](crate::folder::FolderConfig)): flattened into both.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SuiteSettings {
    /// Opponents to play by default (reference names, `.wasm` paths, or Klotski layouts).
    #[serde(default)]
    pub opponents: Vec<String>,
    /// Seeds to play by default.
    #[serde(default)]
    pub seeds: SeedRange,
    /// Turn cap; by default the game's.
    #[serde(default)]
    pub max_turns: Option<u32>,
    /// Sandbox limits, passed through to the sandbox as written.
    #[serde(default)]
    pub limits: toml::Table,
}

impl SuiteSettings {
    /// The keys of these settings, as a settings table spells them.
    pub const KEYS: [&'static str; 4] = ["opponents", "seeds", "max_turns", "limits"];

    /// The opponents to play by default: `opponents`, else every reference opponent of `game`.
    pub fn opponents_of(&self, game: GameKind) -> Vec<String> {
        if self.opponents.is_empty() { game.default_opponents() } else { self.opponents.clone() }
    }
}

/// A settings table that flattens [`SuiteSettings`] into its own keys (`OWN_KEYS`). serde
/// refuses unknown keys of such a table without saying where they are or which keys there
/// are, so [`check_keys`] refuses them first.
pub(crate) trait SettingsTable {
    /// The table's keys besides [`SuiteSettings::KEYS`].
    const OWN_KEYS: &'static [&'static str];
}

/// Refuses a key of the table `deserializer` reads that `T` does not have, naming the keys it
/// has; the error is raised at the key's value, so a deserializer of text locates it there.
pub(crate) fn check_keys<'de, T: SettingsTable, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<(), D::Error> {
    deserializer.deserialize_map(KeyCheck::<T>(std::marker::PhantomData))
}

/// [`check_keys`]'s visitor.
struct KeyCheck<T>(std::marker::PhantomData<T>);

impl<'de, T: SettingsTable> serde::de::Visitor<'de> for KeyCheck<T> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a table of settings")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let known = || T::OWN_KEYS.iter().chain(&SuiteSettings::KEYS);
        while let Some(key) = map.next_key::<String>()? {
            if known().any(|k| *k == key) {
                map.next_value::<serde::de::IgnoredAny>()?;
            } else {
                let expected: Vec<String> = known().map(|k| format!("`{k}`")).collect();
                let message =
                    format!("unknown field `{key}`, expected one of {}", expected.join(", "));
                map.next_value_seed(Refused(message))?;
            }
        }
        Ok(())
    }
}

/// A value refused with its message, wherever it is.
struct Refused(String);

impl<'de> serde::de::DeserializeSeed<'de> for Refused {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, _: D) -> Result<(), D::Error> {
        Err(serde::de::Error::custom(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Table;

    impl SettingsTable for Table {
        const OWN_KEYS: &'static [&'static str] = &["game"];
    }

    #[test]
    fn a_key_of_neither_kind_is_refused_naming_every_known_key() {
        let check = |text: &str| check_keys::<Table, _>(text.parse::<toml::Table>().unwrap());
        assert!(check("game = 1\nseeds = \"x\"\n[limits]\nanything = 2\n").is_ok());
        let error = check("game = 1\nturns = 3\n").unwrap_err();
        assert_eq!(
            error.message(),
            "unknown field `turns`, expected one of `game`, `opponents`, `seeds`, `max_turns`, `limits`"
        );
        let defaults = SuiteSettings::default();
        assert_eq!(
            defaults.opponents_of(GameKind::TicTacToe),
            GameKind::TicTacToe.default_opponents()
        );
    }
}
