// The botlens extension: starts `botlens lsp` for the workspace and wires its commands.
//
// The server does the work (builds on save, plays the suite, publishes diagnostics, code lenses
// and hovers); this file only starts it, passes the settings, and turns the answers of
// `botlens.replay` and `botlens.debug` into a terminal running that command line (the second
// one opens gdb there, stopped at the failing turn). It also declares the debugger type
// `botlens`: a lost game in VS Code's own debugger, through lldb's debug adapter, which
// `botlens debug … --dap` runs confined, launched as `botlens debug … --launch-config` says.

import { execFile } from "node:child_process";
import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/**
 * The files a bot's build reads, as `botlens lsp` watches them (`toolchain::watched` in
 * botlens's harness, but opponent modules): the sources and headers of Rust projects, bot
 * folders and lone source files in every language botlens builds, and TOML for `Cargo.toml`,
 * `botlens.toml` and cargo's settings. Their documents are the server's.
 */
const BOT_FILES = ["*.rs", "*.toml", "*.js", "*.py", "*.c", "*.h", "*.zig", "*.ts"];

/** The settings the server reads, from the `botlens.*` configuration. */
function settings(): object {
  const config = vscode.workspace.getConfiguration("botlens");
  return {
    botlens: {
      opponents: config.get<string[]>("opponents", []),
      seeds: config.get<string>("seeds", ""),
      maxTurns: config.get<number | null>("maxTurns", null),
      publishBuildErrors: config.get<boolean>("publishBuildErrors", true),
    },
  };
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const command = vscode.workspace.getConfiguration("botlens").get<string>("path", "botlens");
  const serverOptions: ServerOptions = { command, args: ["lsp"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: BOT_FILES.map((glob) => ({ scheme: "file", pattern: `**/${glob}` })),
    initializationOptions: settings(),
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher(`**/{${BOT_FILES.join(",")}}`),
    },
    middleware: {
      // The server's commands run through the client so `botlens.replay` and `botlens.debug`
      // can open a terminal.
      executeCommand: async (name, args, next) => {
        if (TERMINAL_COMMANDS.has(name)) {
          return inTerminal(name, args);
        }
        return next(name, args);
      },
    },
  };
  client = new LanguageClient("botlens", "botlens", serverOptions, clientOptions);

  context.subscriptions.push(
    vscode.commands.registerCommand("botlens.rerun", (project?: string) =>
      client?.sendRequest(ExecuteCommandRequest.type, {
        command: "botlens.rerun",
        arguments: project ? [project] : [],
      }),
    ),
    ...[...TERMINAL_COMMANDS.keys()].map((name) =>
      vscode.commands.registerCommand(name, (...args: unknown[]) => inTerminal(name, args)),
    ),
    vscode.debug.registerDebugConfigurationProvider("botlens", {
      resolveDebugConfigurationWithSubstitutedVariables: (_folder, config) =>
        launchConfig(command, config),
    }),
    vscode.debug.registerDebugAdapterDescriptorFactory("botlens", {
      createDebugAdapterDescriptor: (session) =>
        new vscode.DebugAdapterExecutable(command, [...gameArgs(session.configuration), "--dap"]),
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("botlens")) {
        client?.sendNotification("workspace/didChangeConfiguration", { settings: settings() });
      }
    }),
  );
  await client.start();
}

/** The server's commands that answer a command line to run in a terminal, and its title. */
const TERMINAL_COMMANDS = new Map([
  ["botlens.replay", "botlens replay"],
  ["botlens.debug", "botlens debug"],
]);

/**
 * Asks the server for the command line of `name` (arguments: the project, then optionally the
 * opponent and seed of a diagnostic's data) and runs it in a terminal.
 */
async function inTerminal(name: string, args: unknown[]): Promise<void> {
  if (!client) {
    return;
  }
  let project = args[0];
  if (typeof project !== "string") {
    const folder = vscode.workspace.workspaceFolders?.[0];
    project = await vscode.window.showInputBox({
      prompt: "botlens: the bot project",
      value: folder?.uri.fsPath ?? "",
    });
    if (typeof project !== "string") {
      return;
    }
  }
  try {
    const line = await client.sendRequest(ExecuteCommandRequest.type, {
      command: name,
      arguments: [project, ...args.slice(1)],
    });
    if (typeof line !== "string") {
      return;
    }
    const terminal = vscode.window.createTerminal({ name: TERMINAL_COMMANDS.get(name) });
    terminal.show();
    terminal.sendText(line);
  } catch (error) {
    vscode.window.showErrorMessage(`botlens: ${error instanceof Error ? error.message : error}`);
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}

/** `botlens debug`'s arguments naming the game of a `botlens` debug configuration. */
function gameArgs(config: vscode.DebugConfiguration): string[] {
  return ["debug", String(config.bot), "--vs", String(config.vs), "--seed", String(config.seed)];
}

/**
 * A `botlens` debug configuration made the launch request lldb's adapter takes: what
 * `botlens debug … --launch-config` prints (the program under the debugger, its arguments,
 * botlens's lldb commands and the breakpoint on the failing line), run without a shell.
 */
async function launchConfig(
  command: string,
  config: vscode.DebugConfiguration,
): Promise<vscode.DebugConfiguration | undefined> {
  if (typeof config.bot !== "string" || typeof config.vs !== "string" || config.seed === undefined) {
    vscode.window.showErrorMessage("botlens: a botlens debug configuration names `bot`, `vs` and `seed`");
    return undefined;
  }
  const printed = await new Promise<string>((resolve, reject) => {
    execFile(command, [...gameArgs(config), "--launch-config"], (error, stdout, stderr) => {
      if (error) {
        reject(new Error(stderr.trim() || error.message));
      } else {
        resolve(stdout);
      }
    });
  }).catch((error: Error) => {
    vscode.window.showErrorMessage(`botlens: ${error.message}`);
    return undefined;
  });
  if (printed === undefined) {
    return undefined;
  }
  return { ...config, ...JSON.parse(printed), name: config.name, type: "botlens", request: "launch" };
}
