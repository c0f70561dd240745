extern "C" {
    fn c_sum(n: std::os::raw::c_long) -> std::os::raw::c_long;
}

pub fn sum(n: i64) -> i64 {
    unsafe { c_sum(n as _) as i64 }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sums() {
        assert_eq!(super::sum(10), 45);
    }
}
