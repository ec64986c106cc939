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
/// are, and reports a bad value of a flattened table at its first line (`max_turns =
/// 99999999999` at 1:1), so [`check_keys`] checks them first, each where it is.
pub(crate) trait SettingsTable {
    /// The table's keys besides [`SuiteSettings::KEYS`].
    const OWN_KEYS: &'static [&'static str];

    /// Checks the value of the table's own key `key` (one of `OWN_KEYS`) as its type.
    fn check_own<'de, D: serde::Deserializer<'de>>(key: &str, value: D) -> Result<(), D::Error>;
}

/// Refuses a key of the table `deserializer` reads that `T` does not have, naming the keys it
/// has, and a value of the wrong type or out of its type's range (`max_turns = 99999999999`,
/// `fuel_per_turn = -5` under `limits`); each error is raised at the value, so a deserializer of
/// text locates it there.
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
                map.next_value_seed(Typed::<T>(&key, std::marker::PhantomData))?;
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

/// The value of the known key `.0`, checked as its type.
struct Typed<'a, T>(&'a str, std::marker::PhantomData<T>);

impl<'de, T: SettingsTable> serde::de::DeserializeSeed<'de> for Typed<'_, T> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, value: D) -> Result<(), D::Error> {
        match self.0 {
            "opponents" => Vec::<String>::deserialize(value).map(drop),
            "seeds" => SeedRange::deserialize(value).map(drop),
            "max_turns" => u32::deserialize(value).map(drop),
            "limits" => botlens_sandbox::SandboxLimits::deserialize(value).map(drop),
            own => T::check_own(own, value),
        }
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

        fn check_own<'de, D: serde::Deserializer<'de>>(_: &str, value: D) -> Result<(), D::Error> {
            u8::deserialize(value).map(drop)
        }
    }

    #[test]
    fn a_key_of_neither_kind_is_refused_naming_every_known_key() {
        let check = |text: &str| check_keys::<Table, _>(text.parse::<toml::Table>().unwrap());
        assert!(check("game = 1\nseeds = \"0..3\"\n[limits]\nfuel_per_turn = 20000\n").is_ok());
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

    #[test]
    fn a_value_out_of_its_range_is_refused_where_it_is() {
        let check = |text: &str| {
            let document = toml::de::Deserializer::parse(text).unwrap();
            check_keys::<Table, _>(document).unwrap_err().to_string()
        };
        let turns = check("game = 1\nseeds = \"0..3\"\nmax_turns = 99999999999\n");
        assert!(turns.starts_with("TOML parse error at line 3, column 13"), "{turns}");
        assert!(turns.ends_with("invalid value: integer `99999999999`, expected u32\n"), "{turns}");
        let fuel = check("game = 1\n\n[limits]\nfuel_per_turn = -5\n");
        assert!(fuel.starts_with("TOML parse error at line 4, column 17"), "{fuel}");
        let own = check("game = 300\n");
        assert!(own.starts_with("TOML parse error at line 1, column 8"), "{own}");
        let unknown = check("game = 1\n\n[limits]\nfuel = 5\n");
        assert!(unknown.starts_with("TOML parse error at line 4, column 1"), "{unknown}");
    }
}
