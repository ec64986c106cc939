//! The `--lang` argument of `botlens new`: a language of the harness's table of languages
//! (`botlens_bots::toolchain`). `--help` lists the table's languages, each with what `new`
//! writes in it; any other name is refused with the table's message, which lists them too
//! (`unknown language `go` (known: …)`), as bad usage (exit code 2).

use std::ffi::OsStr;

use botlens_bots::toolchain::Lang;
use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Arg, Command};

/// Parses a language's name or alias against the table of languages.
#[derive(Debug, Clone, Copy)]
pub struct LangArg;

impl TypedValueParser for LangArg {
    type Value = Lang;

    fn parse_ref(
        &self,
        cmd: &Command,
        _arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Lang, clap::Error> {
        value
            .to_string_lossy()
            .parse()
            .map_err(|unknown| cmd.clone().error(ErrorKind::InvalidValue, unknown))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Lang::all().map(|lang| {
            PossibleValue::new(lang.name())
                .help(lang.about())
                .aliases(lang.aliases().iter().copied())
        })))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Args {
        #[arg(long, value_parser = LangArg)]
        lang: Lang,
    }

    #[test]
    fn every_language_of_the_table_parses_by_name_and_alias_and_others_are_refused_with_the_list() {
        for lang in Lang::all() {
            for name in std::iter::once(lang.name()).chain(lang.aliases().iter().copied()) {
                assert_eq!(Args::try_parse_from(["x", "--lang", name]).unwrap().lang, lang);
            }
        }
        let error = Args::try_parse_from(["x", "--lang", "go"]).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidValue);
        let message = error.to_string();
        assert!(
            message.contains(
                "unknown language `go` (known: rust, js, python, c, zig, assemblyscript)"
            ),
            "{message}"
        );
    }

    #[test]
    fn help_lists_the_languages() {
        let help = <Args as clap::CommandFactory>::command().render_help().to_string();
        assert!(
            help.contains("[possible values: rust, js, python, c, zig, assemblyscript]"),
            "{help}"
        );
    }
}
