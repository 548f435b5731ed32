//! The transcendental functions the wheel and vehicle model call, in one place.
//!
//! `std`'s `sin`, `exp`, `atan`… call the platform's maths library, whose last bits
//! differ between operating systems and CPU architectures; two peers of a lockstep or
//! rollback game on different machines would then drift apart. With the `libm` feature
//! (turned on by the plugin's `enhanced-determinism`, as avian routes its own maths
//! through `libm` there) every function here is `libm`'s portable Rust, which gives the
//! same bits everywhere; without it, `std`'s (faster on some targets).
//!
//! The rule: the model calls these, never a `std` float transcendental. The core's test
//! `determinism::the_model_calls_no_std_transcendental` reads the core's and the
//! plugin's sources and fails on a call outside this file. `sqrt`, `abs`, `mul_add`,
//! `floor` and the like are exact in IEEE 754 and stay `std`'s.

/// A float type the functions here take (`f32` and `f64`).
pub trait Real: Copy + private::Sealed {
    #[doc(hidden)]
    fn r_sin(self) -> Self;
    #[doc(hidden)]
    fn r_cos(self) -> Self;
    #[doc(hidden)]
    fn r_tan(self) -> Self;
    #[doc(hidden)]
    fn r_asin(self) -> Self;
    #[doc(hidden)]
    fn r_acos(self) -> Self;
    #[doc(hidden)]
    fn r_atan(self) -> Self;
    #[doc(hidden)]
    fn r_atan2(self, x: Self) -> Self;
    #[doc(hidden)]
    fn r_exp(self) -> Self;
    #[doc(hidden)]
    fn r_exp_m1(self) -> Self;
    #[doc(hidden)]
    fn r_tanh(self) -> Self;
    #[doc(hidden)]
    fn r_hypot(self, y: Self) -> Self;
    #[doc(hidden)]
    fn r_powf(self, y: Self) -> Self;
}

mod private {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// Implements [`Real`] for one float type: each function `std`'s, or `libm`'s under the
/// feature.
macro_rules! real {
    ($t:ty, $($name:ident($($arg:ident),*) => $std:ident | $libm:ident;)*) => {
        impl Real for $t {
            $(
                #[inline]
                fn $name(self $(, $arg: Self)*) -> Self {
                    #[cfg(feature = "libm")]
                    {
                        libm::$libm(self $(, $arg)*)
                    }
                    #[cfg(not(feature = "libm"))]
                    {
                        <$t>::$std(self $(, $arg)*)
                    }
                }
            )*
        }
    };
}

real!(f32,
    r_sin() => sin | sinf;
    r_cos() => cos | cosf;
    r_tan() => tan | tanf;
    r_asin() => asin | asinf;
    r_acos() => acos | acosf;
    r_atan() => atan | atanf;
    r_atan2(x) => atan2 | atan2f;
    r_exp() => exp | expf;
    r_exp_m1() => exp_m1 | expm1f;
    r_tanh() => tanh | tanhf;
    r_hypot(y) => hypot | hypotf;
    r_powf(y) => powf | powf;
);

real!(f64,
    r_sin() => sin | sin;
    r_cos() => cos | cos;
    r_tan() => tan | tan;
    r_asin() => asin | asin;
    r_acos() => acos | acos;
    r_atan() => atan | atan;
    r_atan2(x) => atan2 | atan2;
    r_exp() => exp | exp;
    r_exp_m1() => exp_m1 | expm1;
    r_tanh() => tanh | tanh;
    r_hypot(y) => hypot | hypot;
    r_powf(y) => powf | pow;
);

/// Sine of `x` (rad).
#[inline]
pub fn sin<T: Real>(x: T) -> T {
    x.r_sin()
}

/// Cosine of `x` (rad).
#[inline]
pub fn cos<T: Real>(x: T) -> T {
    x.r_cos()
}

/// Sine and cosine of `x` (rad), as `(sin, cos)`.
#[inline]
pub fn sin_cos<T: Real>(x: T) -> (T, T) {
    (x.r_sin(), x.r_cos())
}

/// Tangent of `x` (rad).
#[inline]
pub fn tan<T: Real>(x: T) -> T {
    x.r_tan()
}

/// Arcsine of `x` (rad, −π/2..π/2; NaN outside −1..1).
#[inline]
pub fn asin<T: Real>(x: T) -> T {
    x.r_asin()
}

/// Arccosine of `x` (rad, 0..π; NaN outside −1..1).
#[inline]
pub fn acos<T: Real>(x: T) -> T {
    x.r_acos()
}

/// Arctangent of `x` (rad, −π/2..π/2).
#[inline]
pub fn atan<T: Real>(x: T) -> T {
    x.r_atan()
}

/// The angle of the point `(x, y)` (rad, −π..π), as `std`'s `y.atan2(x)`.
#[inline]
pub fn atan2<T: Real>(y: T, x: T) -> T {
    y.r_atan2(x)
}

/// `e^x`.
#[inline]
pub fn exp<T: Real>(x: T) -> T {
    x.r_exp()
}

/// `e^x − 1`, exact near 0.
#[inline]
pub fn exp_m1<T: Real>(x: T) -> T {
    x.r_exp_m1()
}

/// Hyperbolic tangent of `x`.
#[inline]
pub fn tanh<T: Real>(x: T) -> T {
    x.r_tanh()
}

/// `√(x² + y²)` without overflow or underflow on the way.
#[inline]
pub fn hypot<T: Real>(x: T, y: T) -> T {
    x.r_hypot(y)
}

/// `x` to the power `y`.
#[inline]
pub fn powf<T: Real>(x: T, y: T) -> T {
    x.r_powf(y)
}
