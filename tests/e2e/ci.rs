//! botlens in a bot's CI: `botlens run --format sarif` checked against the published SARIF
//! 2.1.0 schema (`fixtures/sarif-schema-2.1.0.json`) with its results at the lines the samples
//! mark, `--format junit` read back as XML with its counts, and the workflow commands `run`
//! prints with `GITHUB_ACTIONS=true`, which a bot's text can never add to.

use std::path::Path;

use quick_xml::Reader;
use quick_xml::events::Event;
use serde_json::Value;

use crate::support::{
    BUILD_DEADLINE, Output, botlens, botlens_building, botlens_with_env, line_after_marker,
    repo_root,
};

/// The buggy sample these tests run, and the file and marker of the line it fails at.
const SAMPLE: &str = "samples/battleships-offbyone";
const SAMPLE_FILE: &str = "samples/battleships-offbyone/src/lib.rs";
const MARKER: &str = "botlens reports the illegal_move on the next line";

/// `botlens run SAMPLE extra…` (building it if no test has yet).
fn run_sample(extra: &[&str]) -> Output {
    botlens_building(&[&["run", SAMPLE][..], extra].concat())
}

/// The sample's report as JSON.
fn sample_report() -> Value {
    let out = run_sample(&["--json"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    serde_json::from_str(&out.stdout).expect("a JSON report")
}

/// Why `log` is not valid against the SARIF 2.1.0 schema in the fixtures, if it is not.
fn sarif_errors(log: &Value) -> Option<String> {
    let schema = repo_root().join("tests/e2e/fixtures/sarif-schema-2.1.0.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema).expect("the schema")).expect("JSON");
    let url = schema["$id"].as_str().expect("the schema's $id").to_owned();
    let mut compiler = boon::Compiler::new();
    compiler.enable_format_assertions();
    compiler.add_resource(&url, schema).expect("the schema loads");
    let mut schemas = boon::Schemas::new();
    let index = compiler.compile(&url, &mut schemas).expect("the schema compiles");
    schemas.validate(log, index).err().map(|error| format!("{error:#}"))
}

/// Fails the test unless `log` is valid SARIF 2.1.0 ([`sarif_errors`]).
fn assert_valid_sarif(log: &Value) {
    if let Some(errors) = sarif_errors(log) {
        panic!("not valid SARIF 2.1.0: {errors}\n{log:#}");
    }
}

#[test]
fn the_schema_refuses_what_is_not_sarif() {
    let log =
        serde_json::json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}}]});
    assert_eq!(sarif_errors(&log), None);
    // Without a version; a result without a message; a result on line 0.
    let tool = serde_json::json!({"driver": {"name": "x"}});
    let unsaid = serde_json::json!({"ruleId": "a"});
    let region = serde_json::json!({"startLine": 0});
    let location = serde_json::json!({"physicalLocation": {"region": region}});
    let nowhere = serde_json::json!({"message": {"text": "a"}, "locations": [location]});
    for bad in [
        serde_json::json!({"runs": []}),
        serde_json::json!({"version": "2.1.0", "runs": [{"tool": tool, "results": [unsaid]}]}),
        serde_json::json!({"version": "2.1.0", "runs": [{"tool": tool, "results": [nowhere]}]}),
    ] {
        assert!(sarif_errors(&bad).is_some(), "{bad}");
    }
}

#[test]
fn sarif_of_a_buggy_sample_is_valid_and_puts_each_failure_at_its_line() {
    let line = line_after_marker(&repo_root().join(SAMPLE_FILE), MARKER);
    let report = sample_report();
    let out = run_sample(&["--format", "sarif"]);
    assert_eq!(out.code, Some(1), "the exit status is run's: {}", out.stderr);
    let log: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    assert_valid_sarif(&log);
    let run = &log["runs"][0];
    let root = format!("file://{}/", repo_root().display());
    assert_eq!(run["originalUriBaseIds"]["%SRCROOT%"]["uri"], root.as_str());
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), report["failures"].as_array().unwrap().len(), "{log:#}");
    let result = &results[0];
    assert_eq!((&result["ruleId"], &result["level"]), (&"illegal_move".into(), &"error".into()));
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let index = result["ruleIndex"].as_u64().expect("a rule index") as usize;
    assert_eq!(rules[index]["id"], "illegal_move");
    assert!(rules[index]["help"]["text"].as_str().unwrap().contains("botlens replay"));
    let place = &result["locations"][0]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uri"], SAMPLE_FILE, "{result:#}");
    assert_eq!(place["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(place["region"]["startLine"].as_u64(), Some(line), "{result:#}");
    assert_eq!(place["region"]["startColumn"], report["failures"][0]["column"]);
    // The code flow is the call stack, innermost (where it failed) last.
    let flow = result["codeFlows"][0]["threadFlows"][0]["locations"].as_array().unwrap();
    let innermost = &flow.last().expect("a frame")["location"]["physicalLocation"];
    assert_eq!(innermost["artifactLocation"]["uri"], SAMPLE_FILE);
    assert_eq!(innermost["region"]["startLine"].as_u64(), Some(line));
    let replay = report["failures"][0]["replay"].as_str().unwrap();
    let message = result["message"]["text"].as_str().unwrap();
    assert!(message.ends_with(&format!("replay: {replay}")), "{message}");
    // Another run fingerprints its results the same: code scanning follows them.
    let again: Value = serde_json::from_str(&run_sample(&["--format", "sarif"]).stdout).unwrap();
    let prints = |log: &Value| log["runs"][0]["results"][0]["partialFingerprints"].clone();
    assert_eq!(prints(&log), prints(&again));
    assert!(prints(&log)["botlens/v1"].is_string());
}

/// Every element of `xml` with its attributes, in document order; fails the test unless the
/// document is well-formed.
fn xml_elements(xml: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().check_end_names = true;
    let mut elements = Vec::new();
    loop {
        match reader.read_event().unwrap_or_else(|e| panic!("not well-formed ({e}):\n{xml}")) {
            Event::Start(element) | Event::Empty(element) => {
                let attributes = element
                    .attributes()
                    .map(|a| {
                        let a = a.expect("an attribute");
                        let value = a.normalized_value(quick_xml::XmlVersion::Explicit1_0);
                        (a.key.as_ref().to_owned(), value.expect("a value").into_owned())
                    })
                    .collect();
                elements.push((element.name().as_ref().to_owned(), attributes));
            }
            Event::Eof => return elements,
            _ => {}
        }
    }
}

#[test]
fn junit_of_a_buggy_sample_has_a_suite_per_opponent_and_a_failing_case_per_group() {
    let report = sample_report();
    let out = run_sample(&["--format", "junit"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let elements = xml_elements(&out.stdout);
    let get = |element: &(String, Vec<(String, String)>), key: &str| {
        element.1.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    };
    let opponents = report["opponents"].as_array().unwrap();
    let failures = report["failures"].as_array().unwrap();
    let suites: Vec<_> = elements.iter().filter(|e| e.0 == "testsuite").collect();
    assert_eq!(suites.len(), opponents.len());
    let mut failing_total = 0;
    for (suite, opponent) in suites.iter().zip(opponents) {
        let name = opponent["name"].as_str().unwrap();
        let failing = failures
            .iter()
            .filter(|f| f["opponents"].as_array().unwrap().iter().any(|o| o == name))
            .count();
        assert_eq!(get(suite, "name").as_deref(), Some(name));
        assert_eq!(get(suite, "failures"), Some(failing.to_string()), "{name}");
        assert_eq!(get(suite, "tests"), Some(failing.max(1).to_string()), "{name}");
        failing_total += failing;
    }
    assert!(failing_total > 0);
    let root = &elements[0];
    assert_eq!(root.0, "testsuites");
    assert_eq!(get(root, "failures"), Some(failing_total.to_string()));
    let cases = elements.iter().filter(|e| e.0 == "testcase").count();
    assert_eq!(get(root, "tests"), Some(cases.to_string()));
    let time: f64 = get(root, "time").unwrap().parse().expect("seconds");
    let ms = report["duration_ms"].as_f64().unwrap();
    assert!((time * 1000.0 - ms).abs() < 5000.0, "a time in seconds: {time}");
    // Each failing case names the file and line, and replays that opponent's first lost game.
    let line = line_after_marker(&repo_root().join(SAMPLE_FILE), MARKER);
    let failing: Vec<_> = elements.iter().filter(|e| get(e, "file").is_some()).collect();
    assert_eq!(failing.len(), failing_total);
    for case in failing {
        assert_eq!(get(case, "file").as_deref(), Some(SAMPLE_FILE));
        assert_eq!(get(case, "line"), Some(line.to_string()));
    }
    for replay in failures[0]["replays"].as_array().unwrap() {
        let replay = format!("replay: {}", replay.as_str().unwrap());
        assert!(out.stdout.contains(&replay), "{replay} in:\n{}", out.stdout);
    }
}

/// The workflow commands GitHub's runner reads in `output`, as its `ActionCommand` parsers do:
/// a line (lines end at `\n` or `\r`) that starts with `::`, leading spaces trimmed, and has a
/// second `::`; or a line holding `##[` and a `]` after it (the older form); none from
/// `::stop-commands::TOKEN` to the line `::TOKEN::`.
fn workflow_commands(output: &str) -> Vec<&str> {
    let mut stopped: Option<String> = None;
    let mut commands = Vec::new();
    for line in output.split(['\n', '\r']) {
        if let Some(token) = &stopped {
            if line.eq_ignore_ascii_case(&format!("::{token}::")) {
                stopped = None;
            }
            continue;
        }
        let trimmed = line.trim_start();
        let v2 = trimmed.strip_prefix("::").is_some_and(|rest| rest.contains("::"));
        let v1 = line.find("##[").is_some_and(|at| line[at..].contains(']'));
        if let Some(token) = trimmed.strip_prefix("::stop-commands::") {
            stopped = Some(token.to_owned());
        } else if v2 || v1 {
            commands.push(line);
        }
    }
    commands
}

/// `botlens args…` in GitHub Actions (`GITHUB_ACTIONS=true`), its standard output and error
/// into one pipe, as the runner reads a step's output: its exit code and that output.
fn in_github_actions(args: &[&str]) -> (Option<i32>, String) {
    let (mut reader, writer) = std::io::pipe().expect("a pipe");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_botlens"))
        .args(args)
        .env("CARGO_TARGET_DIR", crate::support::shared_target())
        .env("GITHUB_ACTIONS", "true")
        .current_dir(repo_root())
        .stdin(std::process::Stdio::null())
        .stdout(writer.try_clone().expect("the pipe's writer"))
        .stderr(writer)
        .spawn()
        .expect("botlens starts");
    let mut output = String::new();
    std::io::Read::read_to_string(&mut reader, &mut output).expect("the output");
    let status = child.wait().expect("botlens ends");
    (status.code(), output)
}

#[test]
fn the_runner_model_reads_commands_anywhere_but_between_stop_and_resume() {
    let output = "a\n  ::error::x\rb ##[warning]y\n::stop-commands::t1\n::error::z\n##[error]w\n::T1::\n::notice::v\n";
    assert_eq!(workflow_commands(output), ["  ::error::x", "b ##[warning]y", "::notice::v"]);
}

#[test]
fn in_github_actions_run_annotates_the_failing_line() {
    let report = sample_report();
    let failure = &report["failures"][0];
    let (code, output) = in_github_actions(&["run", SAMPLE]);
    assert_eq!(code, Some(1), "{output}");
    let expected = format!(
        "::error file={SAMPLE_FILE},line={},col={},title=botlens%3A illegal_move%2C {} of {} games lost::{}%0Alost {} of {} games: vs {}",
        failure["line"],
        failure["column"],
        failure["count"],
        report["games"],
        failure["message"].as_str().unwrap(),
        failure["count"],
        report["games"],
        "random (seeds 8, 10, 11, 16), hunter (seeds 8, 16); the first at move 55 (the bot's turn 32)%0Areplay: botlens replay samples/battleships-offbyone --vs random --seed 8",
    );
    assert_eq!(workflow_commands(&output), [expected.as_str()], "{output}");
    assert!(output.starts_with("::stop-commands::"), "stopped before anything: {output}");
    assert!(output.contains("\nbattleships-offbyone (battleships)"), "{output}");
    // Resumed at the end, for the rest of the step.
    let last = output.lines().last().unwrap();
    assert!(last.starts_with("::") && last.ends_with("::") && !last.contains(' '), "{output}");
    // With a machine-readable report on stdout, the commands go to stderr.
    let env = [("GITHUB_ACTIONS", "true")];
    let out = botlens_with_env(&["run", SAMPLE, "--format", "sarif"], "", BUILD_DEADLINE, &env);
    let _: Value = serde_json::from_str(&out.stdout).expect("stdout is the SARIF log alone");
    assert_eq!(workflow_commands(&out.stderr), [expected.as_str()], "{}", out.stderr);
    // Elsewhere, none.
    let out =
        botlens_with_env(&["run", SAMPLE], "", BUILD_DEADLINE, &[("GITHUB_ACTIONS", "false")]);
    assert_eq!(workflow_commands(&out.stdout), Vec::<&str>::new(), "{}", out.stdout);
    assert!(!out.stdout.contains("::stop-commands::"), "{}", out.stdout);
    assert!(!out.stderr.contains("::stop-commands::"), "{}", out.stderr);
}

/// A Battleships module that panics on its first turn with `message`, giving `file` line 7 as
/// where (it has no debug information of its own).
fn panicking_module(dir: &Path, message: &str, file: &str) -> String {
    let wat_string =
        |text: &str| -> String { text.bytes().map(|byte| format!("\\{byte:02x}")).collect() };
    let module = format!(
        "(module\n\
         \x20 (import \"botlens\" \"panic\" (func $panic (param i32 i32 i32 i32 i32 i32)))\n\
         \x20 (memory (export \"memory\") 1)\n\
         \x20 (@custom \"botlens_abi\" \"1\")\n\
         \x20 (data (i32.const 0) \"{}\")\n\
         \x20 (data (i32.const 2048) \"{}\")\n\
         \x20 (func (export \"botlens_new\") (param i32))\n\
         \x20 (func (export \"botlens_play\")\n\
         \x20   (call $panic (i32.const 0) (i32.const {}) (i32.const 2048) (i32.const {}) (i32.const 7) (i32.const 3))))\n",
        wat_string(message),
        wat_string(file),
        message.len(),
        file.len(),
    );
    let path = dir.join("hostile.wat");
    std::fs::write(&path, module).expect("the module");
    path.display().to_string()
}

#[test]
fn a_bots_panic_message_cannot_add_a_workflow_command() {
    let dir = tempfile::tempdir().unwrap();
    let module = panicking_module(
        dir.path(),
        "boom\n::error::injected\r\n  ::warning file=x::%0A::error::again%25 ##[error]old",
        "bot,line=1::error::b\n::error::c.rs",
    );
    let args = ["run", &module, "--game", "battleships", "--vs", "random", "--seeds", "0..2"];
    let (code, output) = in_github_actions(&args);
    assert_eq!(code, Some(1), "{output}");
    // The table quotes the message and the file as the bot wrote them, newlines and all, but the
    // runner reads one command: the annotation, everything the bot chose escaped in it.
    assert!(output.contains("\n::error::c.rs:7:3\n"), "{output}");
    let file = "bot%2Cline=1%3A%3Aerror%3A%3Ab\\u{a}%3A%3Aerror%3A%3Ac.rs";
    let replay = format!("botlens replay {module} --game battleships --vs random --seed 0");
    assert_eq!(
        workflow_commands(&output),
        [format!(
            "::error file={file},line=7,col=3,title=botlens%3A panic%2C 2 of 2 games lost::boom%0A::error::injected\\u{{d}}%0A  ::warning file=x::%250A::error::again%2525 ##[error]old%0Alost 2 of 2 games: vs random (seeds 0, 1); the first at move 2 (the bot's turn 1)%0Areplay: {replay}"
        )],
        "{output}"
    );
    // Every other command prints what the bot wrote as text only: the replay of the game.
    let replay: Vec<&str> = replay.split(' ').skip(1).collect();
    let (code, output) = in_github_actions(&replay);
    assert_eq!(code, Some(0), "{output}");
    assert!(output.contains("::error::injected"), "the replay quotes the bot: {output}");
    assert_eq!(workflow_commands(&output), Vec::<&str>::new(), "{output}");
    // The same report as SARIF and JUnit stays one valid document each.
    let sarif = botlens(&[&args[..], &["--format", "sarif"]].concat());
    let log: Value = serde_json::from_str(&sarif.stdout).expect("JSON");
    assert_valid_sarif(&log);
    let junit = botlens(&[&args[..], &["--format", "junit"]].concat());
    let elements = xml_elements(&junit.stdout);
    assert_eq!(elements.iter().filter(|e| e.0 == "failure").count(), 1, "{}", junit.stdout);
}

/// The checks of a bot that wastes moves at `line` of its `src/lib.rs` (its project `bot`
/// in `root`, outside this repository; `args` run its suite): a SARIF warning at that line,
/// relative to `--source-root`, and a workflow `::warning` there. Called by the test that
/// builds such a bot (`run::wasted_moves_are_warnings_at_the_line_that_made_them`).
pub fn wasted_moves_are_sarif_and_workflow_warnings(
    args: &[&str],
    root: &Path,
    bot: &str,
    line: u64,
) {
    let root = root.canonicalize().expect("the root");
    let relative = format!("{bot}/src/lib.rs");
    let with_root = [args, &["--source-root", root.to_str().unwrap()]].concat();
    let out = botlens(&[&with_root[..], &["--format", "sarif"]].concat());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let log: Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_valid_sarif(&log);
    let results = log["runs"][0]["results"].as_array().unwrap();
    let [warning] = results.as_slice() else { panic!("one warning: {log:#}") };
    assert_eq!((&warning["ruleId"], &warning["level"]), (&"wasted_move".into(), &"warning".into()));
    let place = &warning["locations"][0]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uri"], relative.as_str(), "{warning:#}");
    assert_eq!(place["region"]["startLine"].as_u64(), Some(line));
    let flow = warning["codeFlows"][0]["threadFlows"][0]["locations"].as_array().unwrap();
    let functions: Vec<&str> = flow
        .iter()
        .map(|l| l["location"]["logicalLocations"][0]["fullyQualifiedName"].as_str().unwrap())
        .collect();
    assert!(
        functions.first().unwrap().ends_with("play")
            && functions.last().unwrap().ends_with("again"),
        "{functions:?}"
    );
    let (_, output) = in_github_actions(&with_root);
    let commands = workflow_commands(&output);
    let [command] = commands.as_slice() else { panic!("one command: {output}") };
    let prefix = format!("::warning file={relative},line={line},");
    assert!(command.starts_with(&prefix), "{command}");
    assert!(command.contains(",title=botlens%3A wasted moves (re-attacks)::"), "{command}");
}

/// The workflow `botlens new` wrote into `bot`, read as YAML.
fn new_bots_workflow(bot: &Path) -> yaml_rust2::Yaml {
    let text = std::fs::read_to_string(bot.join(".github/workflows/botlens.yml")).expect("written");
    let mut documents = yaml_rust2::YamlLoader::load_from_str(&text).expect("valid YAML");
    assert_eq!(documents.len(), 1, "{text}");
    documents.remove(0)
}

/// The steps of the workflow's one job.
fn workflow_steps(workflow: &yaml_rust2::Yaml) -> &[yaml_rust2::Yaml] {
    let jobs = workflow["jobs"].as_hash().expect("jobs");
    assert_eq!(jobs.len(), 1, "one job");
    let (_, job) = jobs.iter().next().unwrap();
    job["steps"].as_vec().expect("steps")
}

/// The workflow's step named `name`.
fn workflow_step<'a>(workflow: &'a yaml_rust2::Yaml, name: &str) -> &'a yaml_rust2::Yaml {
    let steps = workflow_steps(workflow);
    steps.iter().find(|step| step["name"].as_str() == Some(name)).unwrap_or_else(|| {
        panic!("no step {name:?} in {steps:?}");
    })
}

#[test]
fn every_new_bot_gets_a_workflow_that_installs_what_its_language_builds_with() {
    let dir = tempfile::tempdir().unwrap();
    for (lang, game, setup) in [
        ("rust", "battleships", None),
        (
            "c",
            "tictactoe",
            Some(
                "sudo apt-get update && sudo apt-get install -y clang lld wasi-libc libclang-rt-dev-wasm32",
            ),
        ),
        (
            "js",
            "battleships",
            Some(
                "sudo apt-get update && sudo apt-get install -y clang lld wasi-libc libclang-rt-dev-wasm32",
            ),
        ),
        ("zig", "klotski", Some("python3 -m pip install --user --break-system-packages ziglang")),
        ("assemblyscript", "tictactoe", None),
    ] {
        let bot = dir.path().join(lang);
        let made = botlens(&["new", game, bot.to_str().unwrap(), "--lang", lang]);
        assert_eq!(made.code, Some(0), "{}", made.stderr);
        assert!(made.stdout.contains("\n  .github/workflows/botlens.yml\n"), "{}", made.stdout);
        let workflow = new_bots_workflow(&bot);
        let on = workflow["on"].as_hash().expect("on");
        let events: Vec<&str> = on.keys().filter_map(|key| key.as_str()).collect();
        assert_eq!(events, ["push", "pull_request"]);
        assert_eq!(workflow["permissions"]["security-events"].as_str(), Some("write"));
        assert_eq!(workflow["env"]["BOT"].as_str(), Some("."));
        let install = workflow_steps(&workflow)
            .iter()
            .find(|step| step["name"].as_str().is_some_and(|n| n.starts_with("Install what")));
        assert_eq!(install.and_then(|step| step["run"].as_str()), setup, "{lang}");
        let upload = workflow_step(&workflow, "Show the lost games in code scanning");
        assert_eq!(upload["uses"].as_str(), Some("github/codeql-action/upload-sarif@v3"));
        assert_eq!(upload["if"].as_str(), Some("always() && hashFiles('botlens.sarif') != ''"));
        let compare = workflow_step(&workflow, "Compare with the base branch");
        assert_eq!(compare["if"].as_str(), Some("github.event_name == 'pull_request'"));
        let sprt = if game == "klotski" { "" } else { "--sprt elo0=-10 elo1=0 " };
        assert_eq!(
            compare["run"].as_str(),
            Some(
                format!(
                    "botlens compare \"$BOT\" \"$BOT@origin/$GITHUB_BASE_REF\" {sprt}--fail-on-regression"
                )
                .as_str()
            )
        );
    }
}

/// Runs the workflow's step `name` in `bot` as GitHub's runner runs a `run:` step (bash with
/// `-e` and `pipefail`), with the workflow's environment, `GITHUB_ACTIONS`, the base branch of
/// a pull request against `main`, and this botlens first on `PATH` (a Rust bot building into the
/// tests' shared target directory); its exit code and output.
fn run_step(workflow: &yaml_rust2::Yaml, name: &str, bot: &Path) -> (Option<i32>, String) {
    let script = workflow_step(workflow, name)["run"].as_str().expect("a run step");
    let bin = Path::new(env!("CARGO_BIN_EXE_botlens")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut command = std::process::Command::new("bash");
    command.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script]);
    for (key, value) in workflow["env"].as_hash().expect("env") {
        let value =
            value.as_str().map(str::to_owned).or_else(|| value.as_i64().map(|n| n.to_string()));
        command.env(key.as_str().unwrap(), value.expect("a string"));
    }
    let out = command
        .envs([("GITHUB_ACTIONS", "true"), ("GITHUB_BASE_REF", "main"), ("PATH", path.as_str())])
        .env("CARGO_TARGET_DIR", crate::support::shared_target())
        .current_dir(bot)
        .output()
        .expect("bash runs");
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

#[test]
fn the_new_workflow_uploads_the_suite_and_fails_a_pull_request_that_weakens_the_bot() {
    // A Tic-tac-toe bot whose main branch plays perfectly (the minimax sample)…
    let repo = tempfile::tempdir().unwrap();
    let bot = repo.path().join("workflow-bot");
    let made = botlens(&["new", "tictactoe", bot.to_str().unwrap()]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    let manifest = std::fs::read_to_string(bot.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("botlens-sdk = { path = \"botlens/sdk\" }"), "{manifest}");
    let starter = std::fs::read_to_string(bot.join("src/lib.rs")).unwrap();
    let minimax = repo_root().join("samples/tictactoe-minimax/src/lib.rs");
    std::fs::copy(minimax, bot.join("src/lib.rs")).unwrap();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
            .args(args)
            .current_dir(&bot)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    git(&["init", "--quiet", "--initial-branch", "main"]);
    git(&["add", "."]);
    git(&["commit", "--quiet", "-m", "minimax"]);
    // …as `actions/checkout` with `fetch-depth: 0` leaves it for a pull request.
    git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
    let workflow = new_bots_workflow(&bot);

    // A pull request that goes back to the starting bot, which marks the first free square.
    git(&["checkout", "--quiet", "-b", "weaker"]);
    std::fs::write(bot.join("src/lib.rs"), &starter).unwrap();
    git(&["commit", "--quiet", "-am", "simpler"]);
    let (code, output) = run_step(&workflow, "Play the suite", &bot);
    assert_eq!(code, Some(0), "no game lost by a fault: {output}");
    let log: Value =
        serde_json::from_str(&std::fs::read_to_string(bot.join("botlens.sarif")).unwrap())
            .expect("the step leaves the SARIF log alone in botlens.sarif");
    assert_valid_sarif(&log);
    let (code, output) = run_step(&workflow, "Compare with the base branch", &bot);
    assert_eq!(code, Some(1), "a regression fails the step: {output}");
    assert!(output.contains(" - H0 was accepted\n"), "{output}");
    assert!(
        output.contains("botlens: . is worse than .@origin/main: a regression (exit status 1, --fail-on-regression)"),
        "{output}"
    );

    // A pull request that changes nothing the bot does passes.
    git(&["checkout", "--quiet", "main"]);
    git(&["checkout", "--quiet", "-b", "same"]);
    std::fs::write(bot.join("notes.txt"), "the same bot\n").unwrap();
    git(&["add", "notes.txt"]);
    git(&["commit", "--quiet", "-m", "notes"]);
    let (code, output) = run_step(&workflow, "Compare with the base branch", &bot);
    assert_eq!(code, Some(0), "{output}");
    assert!(output.contains(" - H1 was accepted\n"), "{output}");

    // A build that fails leaves no report for the upload step, and fails the step with 2.
    std::fs::write(bot.join("src/lib.rs"), "this is not Rust").unwrap();
    std::fs::remove_file(bot.join("botlens.sarif")).ok();
    let (code, output) = run_step(&workflow, "Play the suite", &bot);
    assert_eq!(code, Some(2), "{output}");
    assert!(!bot.join("botlens.sarif").exists(), "an empty log is not left to upload");
}
