pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 1), 2);
    }

    #[test]
    fn fails() {
        println!("some output of fails");
        assert_eq!(add(1, 1), 3);
    }

    #[test]
    #[ignore]
    fn slow() {}

    #[test]
    #[ignore = "needs network"]
    fn network() {}

    #[test]
    #[should_panic]
    fn panics_as_expected() {
        panic!("expected");
    }
}
