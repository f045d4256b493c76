/* rpt_grid: the `grid` format, the box layout in plain ASCII that survives any mail client. */
#include "report/impl.h"

static const struct rpt_frame_glyphs grid_glyphs = {
	.h = "-", .v = "|",
	.top = { "+", "+", "+" },
	.mid = { "+", "+", "+" },
	.bot = { "+", "+", "+" },
};

static int grid_render(const struct rpt_table *t, const struct rpt_opts *o, FILE *out)
{
	return rpt_frame_render(t, &grid_glyphs, o, out);
}

const struct rpt_format rpt_fmt_grid = {
	.name = "grid",
	.desc = "the box layout in plain ASCII, safe for any mail client",
	.render = grid_render,
	.caps = RPT_CAP_PROSE,
};
