/* rpt_box: the `box` format, rounded Unicode box drawing exactly as in the seed's tables. */
#include "report/impl.h"

static const struct rpt_frame_glyphs box_glyphs = {
	.h = "─", .v = "│",
	.top = { "╭", "┬", "╮" },
	.mid = { "├", "┼", "┤" },
	.bot = { "╰", "┴", "╯" },
};

static int box_render(const struct rpt_table *t, const struct rpt_opts *o, FILE *out)
{
	return rpt_frame_render(t, &box_glyphs, o, out);
}

const struct rpt_format rpt_fmt_box = {
	.name = "box",
	.desc = "rounded Unicode box drawing, for terminals",
	.render = box_render,
	.caps = RPT_CAP_PROSE,
};
