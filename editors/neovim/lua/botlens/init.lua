-- botlens for Neovim: attaches `botlens lsp` to the buffers of bots in every language botlens
-- builds (Rust projects, bot folders with a botlens.toml, lone .js, .py, .c, .zig and .ts files) and
-- adds :BotlensReplay, which runs the replay command line of the failure under the cursor in a
-- terminal split, and :BotlensDebug, which opens that game in gdb (`botlens debug`) there,
-- stopped as the bot begins its failing turn. The lenses and the code actions on a failure
-- ("debug this game", "replay this game") open theirs the same way.
--
-- Works from Neovim 0.7 on, the same way on every version: a buffer of a file a bot's build
-- reads is attached when it is read, to a client per bot root (vim.lsp.start from 0.8,
-- vim.lsp.start_client before), the root found with fnamemodify and libuv alone (vim.fs came
-- in 0.8). Code lenses show with vim.lsp.codelens.refresh() (set up here on attach).
--
--   require('botlens').setup({
--     cmd = { 'botlens', 'lsp' },          -- the executable
--     settings = { publishBuildErrors = false, seeds = '0..20' },
--   })

local M = {}

local uv = vim.uv or vim.loop

--- The files a bot's build reads, as `botlens lsp` watches them (`toolchain::watched` in
--- botlens's harness, but opponent modules): sources, headers, and TOML for Cargo.toml,
--- botlens.toml and cargo's settings. A buffer of one of them is attached.
M.files = { '*.rs', '*.toml', '*.js', '*.py', '*.c', '*.h', '*.zig', '*.ts' }

--- The files that make a directory a bot's root: a Cargo project's manifest, a bot folder's
--- settings.
M.markers = { 'Cargo.toml', 'botlens.toml' }

local defaults = {
  cmd = { 'botlens', 'lsp' },
  settings = {},
}

local function is_file(path)
  local stat = uv.fs_stat(path)
  return stat ~= nil and stat.type == 'file'
end

--- The root of the bot around the file `path`: the nearest directory from the file's up that
--- holds a Cargo.toml or a botlens.toml, else the file's own directory (a lone source file).
function M.root(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  local own = dir
  while true do
    for _, marker in ipairs(M.markers) do
      if is_file(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return own
    end
    dir = parent
  end
end

--- Whether the file `path` is one a bot's build reads (a name of `M.files`).
local function watched(path)
  local name = vim.fn.fnamemodify(path, ':t')
  for _, glob in ipairs(M.files) do
    if vim.fn.match(name, vim.fn.glob2regpat(glob)) >= 0 then
      return true
    end
  end
  return false
end

local function on_attach(client, bufnr)
  if client.server_capabilities.codeLensProvider then
    vim.lsp.codelens.refresh()
    vim.api.nvim_create_autocmd({ 'BufWritePost', 'CursorHold' }, {
      buffer = bufnr,
      callback = function() vim.lsp.codelens.refresh() end,
    })
  end
end

--- The server's handlers, wrapped so that the code lens is asked for again as soon as a run
--- ends (its work-done progress ends): Neovim before 0.10 does not take the server's
--- workspace/codeLens/refresh, and the lens would say "running…" until the cursor rests.
local function handlers()
  local progress = vim.lsp.handlers['$/progress']
  return {
    ['$/progress'] = function(err, result, ctx, config)
      if progress then
        progress(err, result, ctx, config)
      end
      if result and result.value and result.value.kind == 'end' then
        vim.schedule(function() vim.lsp.codelens.refresh() end)
      end
    end,
  }
end

--- The botlens client attached to the current buffer, if any.
local function attached_client()
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  for _, client in ipairs(get({ bufnr = 0 })) do
    if client.name == 'botlens' then
      return client
    end
  end
end

--- Opens a terminal split running `line`.
local function run_in_terminal(line)
  vim.cmd('botright split')
  vim.cmd('terminal ' .. line)
  vim.cmd('startinsert')
end

--- The data of the botlens diagnostic under the cursor, if there is one.
local function diagnostic_data()
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  for _, d in ipairs(vim.diagnostic.get(0, { lnum = row })) do
    local data = d.user_data and d.user_data.lsp and d.user_data.lsp.data
    if d.source == 'botlens' and data and data.project then
      return data
    end
  end
end

--- Asks `client` to execute `params` (`botlens.replay`, `botlens.debug` and their arguments),
--- which answers a command line, and runs it in a terminal split.
local function open_answer(client, params, bufnr)
  client.request('workspace/executeCommand', params, function(err, result)
    if err then
      vim.notify('botlens: ' .. err.message, vim.log.levels.ERROR)
    elseif type(result) == 'string' then
      run_in_terminal(result)
    end
  end, bufnr)
end

--- Asks the server for the command line of `command` (`botlens.replay`, `botlens.debug`): the
--- game of the diagnostic under the cursor, else the project's worst game; runs it in a
--- terminal split.
local function run_game_command(command)
  local client = attached_client()
  if not client then
    vim.notify('botlens: no botlens server attached to this buffer', vim.log.levels.WARN)
    return
  end
  local data = diagnostic_data()
  local arguments = data and { data.project, data.opponent, data.seed }
    or { M.root(vim.api.nvim_buf_get_name(0)) }
  open_answer(client, { command = command, arguments = arguments }, 0)
end

--- Runs a `botlens.replay` or `botlens.debug` command a lens or a code action ("debug this
--- game") carries, as `run_game_command` does. (Registered in vim.lsp.commands: Neovim runs
--- such a command itself, not through the server.)
local function game_command(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if client then
    open_answer(client, { command = command.command, arguments = command.arguments }, ctx.bufnr)
  end
end

--- :BotlensReplay — the replay of the failure under the cursor, else of the worst game.
function M.replay()
  local data = diagnostic_data()
  if data and data.replay then
    run_in_terminal(data.replay)
    return
  end
  run_game_command('botlens.replay')
end

--- :BotlensDebug — the failure under the cursor (else the worst game) in gdb, stopped as the
--- bot begins its failing turn (`botlens debug`, see docs/debugging.md).
function M.debug()
  run_game_command('botlens.debug')
end

--- The clients started with vim.lsp.start_client (Neovim 0.7), by root.
local clients = {}

--- Attaches buffer `bufnr` to the client of its bot's root, started with `config` if need be:
--- a buffer of a file on disk (not a terminal's, not another plugin's `scheme://` one).
local function attach(bufnr, config)
  local path = vim.api.nvim_buf_get_name(bufnr)
  if path == '' or path:find('://', 1, true) or vim.bo[bufnr].buftype ~= '' then
    return
  end
  local rooted = vim.tbl_extend('force', config, { root_dir = M.root(path) })
  if vim.lsp.start then
    -- Neovim 0.8+: reuses the client of the same name and root.
    vim.lsp.start(rooted, { bufnr = bufnr })
    return
  end
  local id = clients[rooted.root_dir]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(rooted)
    clients[rooted.root_dir] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

function M.setup(opts)
  opts = vim.tbl_deep_extend('force', defaults, opts or {})
  vim.lsp.commands['botlens.replay'] = game_command
  vim.lsp.commands['botlens.debug'] = game_command
  local config = {
    name = 'botlens',
    cmd = opts.cmd,
    init_options = { botlens = opts.settings },
    settings = { botlens = opts.settings },
    on_attach = on_attach,
    handlers = handlers(),
  }
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = vim.api.nvim_create_augroup('botlens', { clear = true }),
    pattern = M.files,
    callback = function(args)
      attach(args.buf, config)
    end,
  })
  -- The buffers read before setup.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and watched(vim.api.nvim_buf_get_name(bufnr)) then
      attach(bufnr, config)
    end
  end
  vim.api.nvim_create_user_command('BotlensReplay', M.replay, {
    desc = 'botlens: replay the failure under the cursor in a terminal split',
  })
  vim.api.nvim_create_user_command('BotlensDebug', M.debug, {
    desc = 'botlens: debug the failure under the cursor in gdb in a terminal split',
  })
end

return M
