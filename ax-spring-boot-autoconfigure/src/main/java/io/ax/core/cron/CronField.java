package io.ax.core.cron;

/** The seven fields of a Quartz cron expression, with their names and value ranges. */
enum CronField {
    SECONDS("seconds", 0, 59, 59),
    MINUTES("minutes", 0, 59, 59),
    HOURS("hours", 0, 23, 23),
    DAY_OF_MONTH("day-of-month", 1, 31, 31),
    MONTH("month", 1, 12, 12),
    DAY_OF_WEEK("day-of-week", 1, 7, 7),
    YEAR("year", CronExpression.MIN_YEAR, CronExpression.MAX_YEAR, 129);

    private static final String[] MONTH_NAMES = {
        "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"
    };
    private static final String[] DAY_NAMES = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

    final String label;
    final int min;
    final int max;
    /** The largest step Quartz accepts after '/' in this field. */
    final int maxStep;

    CronField(String label, int min, int max, int maxStep) {
        this.label = label;
        this.min = min;
        this.max = max;
        this.maxStep = maxStep;
    }

    boolean hasNames() {
        return this == MONTH || this == DAY_OF_WEEK;
    }

    /** Returns the value of a three-letter name (case-insensitive), or -1 if it is not a name here. */
    int valueOfName(String name) {
        String[] names = this == MONTH ? MONTH_NAMES : this == DAY_OF_WEEK ? DAY_NAMES : new String[0];
        for (int i = 0; i < names.length; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                return i + 1;
            }
        }
        return -1;
    }
}
