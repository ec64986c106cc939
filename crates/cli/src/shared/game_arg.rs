//! The `<GAME>` argument of `botlens new` and `botlens play`: a name from the games registry.
//! `--help` lists the registry's games; any other name is refused with the registry's message,
//! which lists them too (`unknown game `chess` (known: …)`), as bad usage (exit code 2).

use std::ffi::OsStr;

use botlens_games::GameKind;
use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Arg, Command};

/// Parses a game name against [`GameKind::ALL`].
#[derive(Debug, Clone, Copy)]
pub struct GameArg;

impl TypedValueParser for GameArg {
    type Value = GameKind;

    fn parse_ref(
        &self,
        cmd: &Command,
        _arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<GameKind, clap::Error> {
        value
            .to_string_lossy()
            .parse()
            .map_err(|unknown| cmd.clone().error(ErrorKind::InvalidValue, unknown))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(GameKind::ALL.into_iter().map(|game| PossibleValue::new(game.name()))))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Args {
        #[arg(value_parser = GameArg)]
        game: GameKind,
    }

    #[test]
    fn every_game_of_the_registry_parses_and_others_are_refused_with_the_list() {
        for game in GameKind::ALL {
            assert_eq!(Args::try_parse_from(["x", game.name()]).unwrap().game, game);
        }
        let error = Args::try_parse_from(["x", "chess"]).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidValue);
        let message = error.to_string();
        assert!(
            message.contains("unknown game `chess` (known: battleships, tictactoe, klotski)"),
            "{message}"
        );
    }

    #[test]
    fn help_lists_the_games() {
        let help = <Args as clap::CommandFactory>::command().render_help().to_string();
        assert!(help.contains("[possible values: battleships, tictactoe, klotski]"), "{help}");
    }
}
