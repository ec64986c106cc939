-- botlens for Neovim: attaches `botlens lsp` to Rust buffers of bot projects and adds
-- :BotlensReplay, which runs the replay command line of the failure under the cursor in a
-- terminal split, and :BotlensDebug, which opens that game in gdb (`botlens debug`) there,
-- stopped as the bot begins its failing turn.
--
-- Neovim 0.11+ uses vim.lsp.config / vim.lsp.enable; older versions (0.7–0.10) fall back to
-- vim.lsp.start_client on FileType rust. Code lenses show with vim.lsp.codelens.refresh()
-- (set up here on attach).
--
--   require('botlens').setup({
--     cmd = { 'botlens', 'lsp' },          -- the executable
--     settings = { publishBuildErrors = false, seeds = '0..20' },
--   })

local M = {}

local defaults = {
  cmd = { 'botlens', 'lsp' },
  settings = {},
}

--- The directory of the bot project around `path`: the nearest Cargo.toml.
local function project_root(path)
  local found = vim.fs and vim.fs.find and vim.fs.find('Cargo.toml', { upward = true, path = path })
  if found and found[1] then
    return vim.fn.fnamemodify(found[1], ':h')
  end
  return vim.fn.getcwd()
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
    or { project_root(vim.api.nvim_buf_get_name(0)) }
  local params = { command = command, arguments = arguments }
  client.request('workspace/executeCommand', params, function(err, result)
    if err then
      vim.notify('botlens: ' .. err.message, vim.log.levels.ERROR)
    elseif type(result) == 'string' then
      run_in_terminal(result)
    end
  end, 0)
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

function M.setup(opts)
  opts = vim.tbl_deep_extend('force', defaults, opts or {})
  local config = {
    cmd = opts.cmd,
    filetypes = { 'rust', 'toml' },
    root_markers = { 'Cargo.toml' },
    init_options = { botlens = opts.settings },
    settings = { botlens = opts.settings },
    on_attach = on_attach,
    handlers = handlers(),
  }
  if vim.lsp.config and vim.lsp.enable then
    vim.lsp.config('botlens', config)
    vim.lsp.enable('botlens')
  else
    -- Neovim before 0.11: start (or reuse) a client per project root on FileType.
    local clients = {}
    vim.api.nvim_create_autocmd('FileType', {
      pattern = config.filetypes,
      callback = function(args)
        local root = project_root(vim.api.nvim_buf_get_name(args.buf))
        local id = clients[root]
        if not id or not vim.lsp.get_client_by_id(id) then
          id = vim.lsp.start_client({
            name = 'botlens',
            cmd = config.cmd,
            root_dir = root,
            init_options = config.init_options,
            settings = config.settings,
            on_attach = on_attach,
            handlers = config.handlers,
          })
          clients[root] = id
        end
        if id then
          vim.lsp.buf_attach_client(args.buf, id)
        end
      end,
    })
  end
  vim.api.nvim_create_user_command('BotlensReplay', M.replay, {
    desc = 'botlens: replay the failure under the cursor in a terminal split',
  })
  vim.api.nvim_create_user_command('BotlensDebug', M.debug, {
    desc = 'botlens: debug the failure under the cursor in gdb in a terminal split',
  })
end

return M
