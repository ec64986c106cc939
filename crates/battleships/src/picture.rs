//! The game as a [`Picture`] ([`Game::picture`](botlens_engine::Game::picture)): both fleets,
//! each grid with the shots it took — water, ship, hit, miss and sunk squares — and the square
//! an attack touches ([`Game::action_cells`](botlens_engine::Game::action_cells)).
//!
//! Grid `seat` is seat `seat`'s own fleet, so an attack by seat 0 lands on grid 1.

use botlens_engine::Seat;
use botlens_engine::picture::{Grid, Picture, Spot, State, state};
use botlens_protocol::battleships::{Attack, BOARD_SIZE};

use crate::board::{Mask, Squares, xy};
use crate::{Battleships, coordinate, render};

/// Both seats' grids, seat 0's first.
pub(crate) fn picture(game: &Battleships) -> Picture {
    let grids = [0, 1].map(|seat| {
        let side = &game.sides[seat];
        let mut grid =
            Grid::new(render::fleet_title(game, seat), BOARD_SIZE, BOARD_SIZE, state::WATER);
        let sunk = side.sunk();
        let paint = |grid: &mut Grid, squares: Mask, state: State| {
            for (x, y) in Squares(squares).map(xy) {
                grid.set(x, y, state);
            }
        };
        paint(&mut grid, side.ships & !side.attacked, state::SHIP);
        paint(&mut grid, side.attacked & !side.ships, state::MISS);
        paint(&mut grid, side.attacked & side.ships & !sunk, state::HIT);
        paint(&mut grid, sunk, state::SUNK);
        grid
    });
    Picture { grids: grids.into() }
}

/// The grid `seat` fires at, and draws its marks on: the other seat's fleet; `None` when the
/// seat is not 0 or 1.
pub(crate) fn target_grid(seat: Seat) -> Option<usize> {
    match seat {
        0 => Some(1),
        1 => Some(0),
        _ => None,
    }
}

/// The square `seat`'s `attack` aims at, on the other seat's grid; `None` when it is off the
/// board or the seat is not 0 or 1.
pub(crate) fn attacked(seat: Seat, attack: &Attack) -> Option<Spot> {
    let target = target_grid(seat)?;
    let (x, y) = (coordinate("x", attack.x).ok()?, coordinate("y", attack.y).ok()?);
    Some(Spot { grid: target, x, y })
}

#[cfg(test)]
mod tests {
    use botlens_engine::Game;

    use super::*;
    use crate::testing::standard_game;

    fn attack(x: i32, y: i32) -> Attack {
        Attack { x, y }
    }

    /// Grid `grid` of `game`'s picture as rows of one letter per state (`~` water, `S` ship,
    /// `X` hit, `o` miss, `#` sunk).
    fn rows(game: &Battleships, grid: usize) -> Vec<String> {
        let picture = game.picture().expect("battleships draws its grids");
        let grid = &picture.grids[grid];
        let letter = |state: &State| match *state {
            "water" => '~',
            "ship" => 'S',
            "hit" => 'X',
            "miss" => 'o',
            "sunk" => '#',
            other => panic!("unexpected state {other}"),
        };
        grid.cells().chunks(grid.width()).map(|row| row.iter().map(letter).collect()).collect()
    }

    #[test]
    fn each_grid_shows_a_fleet_with_the_hits_misses_and_sunk_ships_it_took() {
        let mut game = standard_game(0);
        for (seat, x, y) in [(0, 9, 0), (0, 0, 0), (0, 5, 5), (1, 9, 9), (1, 9, 8)] {
            game.apply(seat, &attack(x, y)).expect("legal");
        }
        let picture = game.picture().expect("drawn");
        let titles: Vec<&str> = picture.grids.iter().map(Grid::title).collect();
        assert_eq!(titles, ["seat 0 fleet (6/7 afloat)", "seat 1 fleet (6/7 afloat)"]);
        assert!(picture.grids.iter().all(|grid| (grid.width(), grid.height()) == (10, 10)));
        assert!(picture.grids.iter().all(|grid| grid.blocks().is_empty()));
        assert_eq!(
            rows(&game, 0),
            [
                "SSSSS~~~~S",
                "~~~~~~~~~~",
                "SSSS~~~~~~",
                "~~~~~~~~~~",
                "SSS~~~~~~~",
                "~~~~~~~~~~",
                "SS~~~~~~~~",
                "~~~~~~~~~~",
                "SS~~~~~~~o",
                "~~~~~~~~~#",
            ]
        );
        assert_eq!(
            rows(&game, 1),
            [
                "XSSSS~~~~#",
                "~~~~~~~~~~",
                "SSSS~~~~~~",
                "~~~~~~~~~~",
                "SSS~~~~~~~",
                "~~~~~o~~~~",
                "SS~~~~~~~~",
                "~~~~~~~~~~",
                "SS~~~~~~~~",
                "~~~~~~~~~S",
            ]
        );
    }

    #[test]
    fn a_sunk_ship_is_distinct_from_a_hit_one_on_every_square() {
        let mut game = standard_game(0);
        for x in 0..4 {
            game.apply(0, &attack(x, 2)).expect("legal");
        }
        assert_eq!(rows(&game, 1)[2], "####~~~~~~", "the warship sank");
        assert_eq!(rows(&game, 1)[0], "SSSSS~~~~S");
        game.apply(0, &attack(0, 0)).expect("legal");
        assert_eq!(rows(&game, 1)[0], "XSSSS~~~~S", "the carrier is only hit");
    }

    #[test]
    fn an_attack_touches_its_square_on_the_other_seats_grid() {
        let game = standard_game(0);
        assert_eq!(game.action_cells(0, &attack(3, 7)), [Spot { grid: 1, x: 3, y: 7 }]);
        assert_eq!(game.action_cells(1, &attack(0, 9)), [Spot { grid: 0, x: 0, y: 9 }]);
        let picture = game.picture().expect("drawn");
        assert!(game.action_cells(0, &attack(9, 9)).iter().all(|spot| picture.contains(spot)));
    }

    #[test]
    fn a_seat_draws_on_the_grid_it_fires_at() {
        let game = standard_game(0);
        for seat in [0, 1] {
            let [fired_at] = game.action_cells(seat, &attack(0, 0))[..] else { panic!("one") };
            assert_eq!(Battleships::drawing_grid(seat), fired_at.grid, "seat {seat}");
        }
    }

    #[test]
    fn an_attack_off_the_board_or_from_no_seat_touches_nothing() {
        let game = standard_game(0);
        for (seat, x, y) in [(0, 10, 0), (0, 0, -1), (1, -5, 3), (1, 3, 10), (2, 3, 3), (7, 0, 0)] {
            assert_eq!(game.action_cells(seat, &attack(x, y)), [], "seat {seat} ({x}, {y})");
        }
    }
}
