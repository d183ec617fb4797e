//! Geometry of the completeness-vs-lateness curve: pure maths, drawn as SVG
//! by the view.

/// Plot area and margins, in SVG user units. Positions come out as whole
/// units (well under a pixel's error at this size): printing an f64 would
/// cost the bundle more than all of this chart.
pub const WIDTH: i32 = 640;
pub const HEIGHT: i32 = 280;
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
}

impl Chart {
    /// `curve` is (lateness, count bp, value bp) for 0..=max_l.
    pub fn new(curve: &[(u32, u32, u32)]) -> Self {
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
        chart.x_ticks = (0..=max_l)
            .step_by(if max_l > 14 { 2 } else { 1 })
            .map(|l| (l.to_string(), chart.x(l)))
            .collect();
        chart
    }

    pub fn x(&self, l: u32) -> i32 {
        let share = f64::from(l.min(self.max_l)) / f64::from(self.max_l);
        LEFT + (share * f64::from(WIDTH - LEFT - RIGHT)).round() as i32
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
        WIDTH - RIGHT
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
}
