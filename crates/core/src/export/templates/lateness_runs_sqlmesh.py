def replay(last_run):
    """SQLMesh: the first run is the plan that creates the model, each one
    after a `sqlmesh run` at the run's time. The booked ids and the runs."""
    from sqlmesh import Context

    ctx = Context(paths=HERE)
    run, before, runs = FIRST_RUN, datetime(1970, 1, 1), 0
    while run <= last_run:
        ctx.engine_adapter.execute(ARRIVED.format(before, run))
        if run == FIRST_RUN:
            # A plan that fails raises.
            ctx.plan(auto_apply=True, no_prompts=True, execution_time=run)
        elif ctx.run(execution_time=run).is_failure:
            # A failed run returns its status: its days are not built, which
            # must not read as orders it never books.
            raise SystemExit(f"the run at {run} failed")
        runs += 1
        before, run = run, run + timedelta(days=1)
    return booked_rows(ctx.engine_adapter.fetchall), runs
