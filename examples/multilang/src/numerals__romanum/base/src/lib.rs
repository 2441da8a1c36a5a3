//! Roman numerals for 1..=3999 in their standard (subtractive) form.

const TABLE: [(u32, &str); 13] = [
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
];

/// Writes `n` as a Roman numeral; `None` outside 1..=3999.
pub fn to_roman(mut n: u32) -> Option<String> {
    if n == 0 || n > 3999 {
        return None;
    }
    let mut out = String::new();
    for &(value, symbol) in TABLE.iter() {
        while n >= value {
            out.push_str(symbol);
            n -= value;
        }
    }
    Some(out)
}

fn digit(c: char) -> Option<u32> {
    Some(match c {
        'I' => 1,
        'V' => 5,
        'X' => 10,
        'L' => 50,
        'C' => 100,
        'D' => 500,
        'M' => 1000,
        _ => return None,
    })
}

/// Reads a Roman numeral; `None` when `s` is empty or holds anything but
/// the seven numeral letters.
pub fn from_roman(s: &str) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    let values: Option<Vec<u32>> = s.chars().map(digit).collect();
    let values = values?;
    let mut total = 0i64;
    for (i, &v) in values.iter().enumerate() {
        match values.get(i + 1) {
            Some(&next) if next > v => total -= i64::from(v),
            _ => total += i64::from(v),
        }
    }
    if total <= 0 || total > 3999 {
        return None;
    }
    let total = total as u32;
    Some(total)
}
