//! Text pictures of a game: the whole board for the replayer and editor hovers
//! ([`Game::render`]) and one player's view for human play
//! ([`Game::render_view`]).
//!
//! Grids are drawn side by side with `x` across the top and `y` down the left, in the same
//! 0-based coordinates as `attack(x, y)`, so a square named in a diagnostic is found by eye.
//! Plain ASCII inside the grids, so columns line up in any monospaced font.

use botlens_engine::picture::{Spot, TextCell};
use botlens_engine::{Game, Status};
use botlens_protocol::battleships::{BOARD_SIZE, BattleshipsView, ShipKind, Target};

use crate::Battleships;
use crate::board::CELLS;

/// A titled grid of one character per square, row-major.
struct Panel {
    title: String,
    squares: [char; CELLS],
}

/// Space between the two grids.
const GAP: &str = "    ";

/// The column numbers above a grid.
fn header() -> String {
    let numbers: String = (0..BOARD_SIZE).map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
    format!("   {numbers}")
}

/// The columns the left panel takes, gap excluded: its title or its rows, the wider.
fn left_width(left_title: &str) -> usize {
    left_title.chars().count().max(header().len())
}

/// Draws two panels side by side, each with its title, column numbers and row numbers.
fn side_by_side(panels: [Panel; 2]) -> Vec<String> {
    let header = header();
    let rows = |panel: &Panel| -> Vec<String> {
        let mut lines = vec![panel.title.clone(), header.clone()];
        lines.extend(panel.squares.chunks(BOARD_SIZE).enumerate().map(|(y, row)| {
            let squares: Vec<String> = row.iter().map(char::to_string).collect();
            format!("{y:>2} {}", squares.join(" "))
        }));
        lines
    };
    let [left, right] = panels;
    let width = left_width(&left.title);
    rows(&left)
        .into_iter()
        .zip(rows(&right))
        .map(|(l, r)| format!("{l:<width$}{GAP}{r}").trim_end().to_owned())
        .collect()
}

/// The whole game, hidden ships included: both fleets with the shots they took.
pub(crate) fn game(game: &Battleships) -> String {
    let status = match game.status() {
        Status::Ongoing => format!("seat {} to move", game.next),
        Status::Over(ending) => match ending.winner {
            Some(winner) => format!("seat {winner} won: {}", ending.reason),
            None => ending.reason,
        },
    };
    let panels = [0, 1].map(|seat| {
        let side = &game.sides[seat];
        let sunk = side.sunk();
        let mut squares = ['.'; CELLS];
        for ((cell, square), own) in (0..).zip(squares.iter_mut()).zip(side.own_grid().chars()) {
            *square = if sunk >> cell & 1 == 1 { '#' } else { own };
        }
        Panel { title: fleet_title(game, seat), squares }
    });
    let shots = [0, 1].map(|seat| game.sides[seat].shots);
    let mut lines =
        vec![format!("{status}; shots fired: {} by seat 0, {} by seat 1", shots[0], shots[1])];
    lines.extend(side_by_side(panels));
    lines.push("S ship   X hit   # sunk   o miss   . water".into());
    lines.join("\n") + "\n"
}

/// Where square `spot` of the picture (grid `seat` is seat `seat`'s fleet) shows in [`game`]'s
/// text: after the status line, the titles and the column numbers, one line per row, two
/// columns per square, the right grid past the left one and the gap.
pub(crate) fn cell(game: &Battleships, spot: Spot) -> Option<TextCell> {
    let left = match spot.grid {
        0 => 0,
        1 => left_width(&fleet_title(game, 0)) + GAP.len(),
        _ => return None,
    };
    (spot.x < BOARD_SIZE && spot.y < BOARD_SIZE).then(|| TextCell {
        line: 3 + spot.y,
        column: left + 3 + 2 * spot.x,
        width: 1,
    })
}

/// `seat 0 fleet (6/7 afloat)`: the title of a seat's grid, in text and in the picture.
pub(crate) fn fleet_title(game: &Battleships, seat: usize) -> String {
    let side = &game.sides[seat];
    let afloat = side.masks.iter().filter(|&&mask| mask & !side.attacked != 0).count();
    format!("seat {seat} fleet ({afloat}/{} afloat)", side.fleet.len())
}

/// What one player sees: the enemy grid as far as known, and its own fleet.
pub(crate) fn view(view: &BattleshipsView) -> String {
    // A view may come from a hand-written file: read what is there, treat the rest as unknown.
    let mut targets = ['.'; CELLS];
    for (square, c) in targets.iter_mut().zip(view.targets.chars()) {
        *square = Target::from_char(c).to_char();
    }
    let mut own = ['.'; CELLS];
    for (square, c) in own.iter_mut().zip(view.own.chars()) {
        *square = if matches!(c, 'S' | 'X' | 'o') { c } else { '.' };
    }
    let mut lines = vec![format!(
        "{} shots fired; enemy ships left: {}",
        view.shots,
        ships_left(&view.enemy_ships_left)
    )];
    lines.extend(side_by_side([
        Panel { title: "enemy grid".into(), squares: targets },
        Panel { title: "your fleet".into(), squares: own },
    ]));
    lines.push("enemy: x hit  # sunk  o miss  . unknown   yours: S ship  X hit  o miss".into());
    lines.join("\n") + "\n"
}

/// `carrier, cruiser x2, patrol`: the kinds in order of appearance, repeats counted.
fn ships_left(kinds: &[ShipKind]) -> String {
    if kinds.is_empty() {
        return "none".into();
    }
    let mut groups: Vec<(ShipKind, usize)> = Vec::new();
    for &kind in kinds {
        match groups.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, count)) => *count += 1,
            None => groups.push((kind, 1)),
        }
    }
    let names: Vec<String> = groups
        .iter()
        .map(|&(kind, count)| match count {
            1 => kind.name().to_owned(),
            n => format!("{} x{n}", kind.name()),
        })
        .collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use botlens_protocol::battleships::Attack;

    use super::*;
    use crate::testing::standard_game;

    fn attack(game: &mut Battleships, seat: usize, x: i32, y: i32) {
        game.apply(seat, &Attack { x, y }).expect("legal");
    }

    /// A game with a sunk ship, a hit and misses on both sides.
    fn a_few_shots() -> Battleships {
        let mut game = standard_game(0);
        attack(&mut game, 0, 9, 0); // sinks seat 1's patrol
        attack(&mut game, 0, 0, 0); // hits its carrier
        attack(&mut game, 0, 5, 5); // miss: seat 1 to move
        attack(&mut game, 1, 9, 9); // sinks seat 0's other patrol
        attack(&mut game, 1, 9, 8); // miss
        game
    }

    #[test]
    fn the_board_shows_both_fleets_with_hits_misses_and_sunk_ships() {
        let game = a_few_shots();
        let expected = "\
seat 0 to move; shots fired: 3 by seat 0, 2 by seat 1
seat 0 fleet (6/7 afloat)    seat 1 fleet (6/7 afloat)
   0 1 2 3 4 5 6 7 8 9          0 1 2 3 4 5 6 7 8 9
 0 S S S S S . . . . S        0 X S S S S . . . . #
 1 . . . . . . . . . .        1 . . . . . . . . . .
 2 S S S S . . . . . .        2 S S S S . . . . . .
 3 . . . . . . . . . .        3 . . . . . . . . . .
 4 S S S . . . . . . .        4 S S S . . . . . . .
 5 . . . . . . . . . .        5 . . . . . o . . . .
 6 S S . . . . . . . .        6 S S . . . . . . . .
 7 . . . . . . . . . .        7 . . . . . . . . . .
 8 S S . . . . . . . o        8 S S . . . . . . . .
 9 . . . . . . . . . #        9 . . . . . . . . . S
S ship   X hit   # sunk   o miss   . water
";
        assert_eq!(game.render(), expected);
    }

    #[test]
    fn each_square_of_the_picture_shows_where_its_text_cell_says() {
        let game = a_few_shots();
        let (text, picture) = (game.render(), game.picture().expect("a picture"));
        let lines: Vec<&str> = text.lines().collect();
        for (grid, drawn) in picture.grids.iter().enumerate() {
            for (index, state) in drawn.cells().iter().enumerate() {
                let spot = Spot { grid, x: index % BOARD_SIZE, y: index / BOARD_SIZE };
                let cell = game.text_cell(spot).expect("every square shows");
                let shown = lines[cell.line].get(cell.column..cell.column + cell.width);
                let expected = match *state {
                    "water" => ".",
                    "ship" => "S",
                    "hit" => "X",
                    "miss" => "o",
                    "sunk" => "#",
                    other => panic!("state {other}"),
                };
                assert_eq!(shown, Some(expected), "{spot:?} in\n{text}");
            }
        }
        assert_eq!(game.text_cell(Spot { grid: 2, x: 0, y: 0 }), None);
        assert_eq!(game.text_cell(Spot { grid: 1, x: 0, y: 10 }), None);
    }

    #[test]
    fn a_finished_game_names_the_winner() {
        let mut game = standard_game(1);
        for ship in game.fleet(0).to_vec() {
            for (x, y) in ship.cells() {
                attack(&mut game, 1, x as i32, y as i32);
            }
        }
        let first = game.render().lines().next().map(str::to_owned);
        assert_eq!(
            first.as_deref(),
            Some(
                "seat 1 won: sank the whole fleet in 18 shots; shots fired: 0 by seat 0, 18 by seat 1"
            )
        );
    }

    #[test]
    fn a_view_shows_what_the_player_knows_and_its_own_fleet() {
        let mut game = standard_game(0);
        attack(&mut game, 0, 9, 0);
        attack(&mut game, 0, 1, 0);
        attack(&mut game, 0, 3, 3);
        attack(&mut game, 1, 0, 0);
        attack(&mut game, 1, 4, 4);
        let expected = "\
3 shots fired; enemy ships left: carrier, warship, submarine, cruiser x2, patrol
enemy grid                your fleet
   0 1 2 3 4 5 6 7 8 9       0 1 2 3 4 5 6 7 8 9
 0 . x . . . . . . . #     0 X S S S S . . . . S
 1 . . . . . . . . . .     1 . . . . . . . . . .
 2 . . . . . . . . . .     2 S S S S . . . . . .
 3 . . . o . . . . . .     3 . . . . . . . . . .
 4 . . . . . . . . . .     4 S S S . o . . . . .
 5 . . . . . . . . . .     5 . . . . . . . . . .
 6 . . . . . . . . . .     6 S S . . . . . . . .
 7 . . . . . . . . . .     7 . . . . . . . . . .
 8 . . . . . . . . . .     8 S S . . . . . . . .
 9 . . . . . . . . . .     9 . . . . . . . . . S
enemy: x hit  # sunk  o miss  . unknown   yours: S ship  X hit  o miss
";
        assert_eq!(Battleships::render_view(&game.view(0)), expected);
    }

    #[test]
    fn a_malformed_view_renders_without_panicking() {
        let view = BattleshipsView {
            targets: "x#?".into(),
            own: "SZ".into(),
            enemy_ships_left: vec![],
            shots: 7,
        };
        let text = Battleships::render_view(&view);
        assert!(text.starts_with("7 shots fired; enemy ships left: none\n"), "{text}");
        assert!(text.contains(" 0 x # . . . . . . . .     0 S . . ."), "{text}");
    }
}
