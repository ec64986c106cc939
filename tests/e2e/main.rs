//! End-to-end tests: the real `botlens` binary as a separate process, one module per feature.
//!
//! Every test drives the binary the way a user or an editor would (arguments, stdin, files) and
//! checks what comes out. Helpers live in `support`.

mod analyze;
mod assemblyscript;
mod bench;
mod c;
mod ci;
mod compare;
mod confinement;
mod dap;
mod debug;
mod editors;
mod help;
mod host_files;
mod install;
mod javascript;
mod klotski;
mod limits;
mod live;
mod lsp;
mod profile;
mod python;
mod replay;
mod run;
mod samples;
mod shard;
mod slurm;
mod support;
mod tidy;
mod tmux;
mod tournament;
mod vscode;
mod watch;
mod zig;
