//! Klotski for bots: the game marker [`Klotski`], its move [`Turn::slide`], and the messages it
//! takes and returns and what the view shows.
//!
//! ```
//! use botlens_sdk::klotski::Dir;
//!
//! assert_eq!(Dir::Left.delta(), (-1, 0));
//! assert_eq!(Dir::ALL.len(), 4);
//! ```

pub use botlens_protocol::klotski::{Dir, Goal, KlotskiView, PieceView, Slid, Slide};

use crate::turn::{Game, Turn, sealed};

/// The Klotski sliding-block puzzle: move with [`Turn::slide`].
///
/// ```no_run
/// # use botlens_sdk::{Klotski, Turn};
/// # use botlens_sdk::klotski::Dir;
/// fn play(turn: &mut Turn<Klotski>) {
///     turn.slide("cc", Dir::Down);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Klotski;

impl sealed::Sealed for Klotski {}

impl Game for Klotski {
    const NAME: &'static str = "klotski";
    type View = KlotskiView;
    type Action = Slide;
    type Response = Slid;
}

impl Turn<Klotski> {
    /// Slides the piece with code `piece` one cell towards `dir`; returns the move and step
    /// counts and whether the puzzle is solved. A blocked slide or an unknown piece is an
    /// illegal move and ends the game.
    ///
    /// ```no_run
    /// # use botlens_sdk::{Klotski, Turn};
    /// use botlens_sdk::klotski::Dir;
    /// fn play(turn: &mut Turn<Klotski>) {
    ///     let slid = turn.slide("cc", Dir::Down);
    ///     if slid.solved {
    ///         botlens_sdk::log!("solved in {} steps", slid.steps);
    ///     }
    /// }
    /// ```
    pub fn slide(&mut self, piece: &str, dir: Dir) -> Slid {
        self.act(Slide { piece: piece.to_owned(), dir })
    }
}
