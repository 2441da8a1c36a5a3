mod tests {
    #[test]
    fn adds() {
        assert_eq!(calc::add(2, 2), 5);
    }
}
