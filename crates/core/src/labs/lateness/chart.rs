//! Geometry of the completeness-vs-lateness curve: pure maths, drawn as SVG
//! by the view.

/// Plot area and margins, in SVG user units. Positions come out as whole
/// units (well under a pixel's error at this size): printing an f64 would
/// cost the bundle more than all of this chart.
pub const WIDTH: i32 = 640;
/// A phone's chart: drawn in fewer units, so its labels come out legible
/// (at 640 units across a 358 px phone, 12-unit labels were 6.7 px).
pub const NARROW_WIDTH: i32 = 400;
pub const HEIGHT: i32 = 280;
/// Tick labels closer than this (in units) are thinned to every other day.
const TICK_ROOM: i32 = 24;
const LEFT: i32 = 56;
const RIGHT: i32 = 16;
const TOP: i32 = 16;
const BOTTOM: i32 = 40;

#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Lowest completeness on the axis, in basis points (a multiple of 5 %).
    pub floor_bp: u32,
    pub max_l: u32,
    pub value_path: String,
    pub count_path: String,
    pub y_ticks: Vec<(String, i32)>,
    pub x_ticks: Vec<(String, i32)>,
    /// How wide the chart is drawn, in units: `WIDTH` or `NARROW_WIDTH`.
    pub width: i32,
}

impl Chart {
    /// `curve` is (lateness, count bp, value bp) for 0..=max_l.
    pub fn new(curve: &[(u32, u32, u32)]) -> Self {
        Self::sized(curve, WIDTH)
    }

    /// The chart `width` units wide (at least the margins and a tick's room).
    pub fn sized(curve: &[(u32, u32, u32)], width: i32) -> Self {
        let width = width.max(LEFT + RIGHT + TICK_ROOM);
        let max_l = curve.iter().map(|p| p.0).max().unwrap_or(1).max(1);
        let lowest = curve.iter().map(|p| p.1.min(p.2)).min().unwrap_or(0);
        // Round down to 5 %, so the interesting top of the curve fills the plot.
        let floor_bp = (lowest / 500) * 500;
        let floor_bp = floor_bp.min(9_500);
        let mut chart = Chart {
            floor_bp,
            max_l,
            value_path: String::new(),
            count_path: String::new(),
            y_ticks: Vec::new(),
            x_ticks: Vec::new(),
            width,
        };
        chart.value_path = chart.path(curve.iter().map(|p| (p.0, p.2)));
        chart.count_path = chart.path(curve.iter().map(|p| (p.0, p.1)));
        let step = if 10_000 - floor_bp > 2_000 {
            1_000
        } else {
            100 * ((10_000 - floor_bp) / 500).max(1)
        };
        let mut bp = floor_bp;
        while bp <= 10_000 {
            chart.y_ticks.push((format!("{} %", bp / 100), chart.y(bp)));
            bp += step;
        }
        let room = (width - LEFT - RIGHT) / i32::try_from(max_l).unwrap_or(i32::MAX);
        chart.x_ticks = (0..=max_l)
            .step_by(if room < TICK_ROOM { 2 } else { 1 })
            .map(|l| (l.to_string(), chart.x(l)))
            .collect();
        chart
    }

    pub fn x(&self, l: u32) -> i32 {
        let share = f64::from(l.min(self.max_l)) / f64::from(self.max_l);
        LEFT + (share * f64::from(self.width - LEFT - RIGHT)).round() as i32
    }

    pub fn y(&self, bp: u32) -> i32 {
        let span = f64::from(10_000 - self.floor_bp).max(1.0);
        let above = f64::from(bp.clamp(self.floor_bp, 10_000) - self.floor_bp);
        HEIGHT - BOTTOM - (above / span * f64::from(HEIGHT - TOP - BOTTOM)).round() as i32
    }

    pub fn plot_left(&self) -> i32 {
        LEFT
    }

    pub fn plot_right(&self) -> i32 {
        self.width - RIGHT
    }

    pub fn plot_bottom(&self) -> i32 {
        HEIGHT - BOTTOM
    }

    fn path(&self, points: impl Iterator<Item = (u32, u32)>) -> String {
        points
            .enumerate()
            .map(|(i, (l, bp))| {
                format!(
                    "{}{},{}",
                    if i == 0 { "M" } else { " L" },
                    self.x(l),
                    self.y(bp)
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axis_starts_at_a_round_floor_and_ends_at_one_hundred_percent() {
        let curve = vec![(0, 9_130, 9_020), (1, 9_860, 9_840), (2, 10_000, 10_000)];
        let chart = Chart::new(&curve);
        assert_eq!(chart.floor_bp, 9_000);
        assert_eq!(chart.y(10_000), TOP);
        assert_eq!(chart.y(9_000), HEIGHT - BOTTOM);
        assert!(chart.x(0) < chart.x(1) && chart.x(1) < chart.x(2));
        assert!(chart.value_path.starts_with('M'));
        assert_eq!(chart.value_path.matches(" L").count(), 2);
        assert_eq!(chart.y_ticks.first().map(|t| t.0.as_str()), Some("90 %"));
        assert_eq!(chart.y_ticks.last().map(|t| t.0.as_str()), Some("100 %"));
    }

    #[test]
    fn an_empty_or_flat_curve_still_draws() {
        let chart = Chart::new(&[]);
        assert!(chart.value_path.is_empty());
        let flat = Chart::new(&[(0, 10_000, 10_000), (1, 10_000, 10_000)]);
        assert_eq!(flat.floor_bp, 9_500);
        assert_eq!(flat.y(10_000), TOP);
    }

    #[test]
    fn a_narrow_chart_spans_its_own_width_and_thins_crowded_ticks() {
        let curve: Vec<_> = (0..=14)
            .map(|l| (l, 9_000 + l * 70, 9_000 + l * 70))
            .collect();
        let wide = Chart::new(&curve);
        assert_eq!((wide.x(14), wide.x_ticks.len()), (WIDTH - RIGHT, 15));
        let narrow = Chart::sized(&curve, NARROW_WIDTH);
        assert_eq!(narrow.x(14), NARROW_WIDTH - RIGHT);
        // 328 units for 14 days is 23 a day, under a label's room: every other day.
        let labels: Vec<&str> = narrow.x_ticks.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(labels, ["0", "2", "4", "6", "8", "10", "12", "14"]);
        assert!(narrow
            .x_ticks
            .windows(2)
            .all(|w| w[1].1 - w[0].1 >= TICK_ROOM));
        assert_eq!(
            narrow.y_ticks, wide.y_ticks,
            "the vertical axis is the same"
        );
        assert_eq!(
            Chart::sized(&curve, -5).plot_right() - Chart::sized(&curve, -5).plot_left(),
            TICK_ROOM
        );
    }
}
