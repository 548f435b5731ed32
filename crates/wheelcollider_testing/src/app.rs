//! The headless app every test, the test track and the benches step: Bevy's minimal
//! plugins, transforms, assets, avian and the wheels, advanced by exactly one fixed
//! step per `update()`.

use std::time::Duration;

use avian3d::prelude::*;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use wheelcollider_avian::prelude::*;

/// Makes each `update()` of `app` advance its clock by one fixed step of `1 / hz`
/// seconds, so that it runs exactly one physics step (whatever the wall clock).
pub fn fixed_step(app: &mut App, hz: f64) -> &mut App {
    let dt = Duration::from_secs_f64(1.0 / hz);
    app.insert_resource(Time::<Fixed>::from_duration(dt))
        .insert_resource(TimeUpdateStrategy::ManualDuration(dt))
}

/// Sets the step of an app made by [`fixed_step`] to `dt` from the next `update()` on:
/// a game whose fixed rate changes at run time.
pub fn set_step(app: &mut App, dt: Duration) {
    app.world_mut().resource_mut::<Time<Fixed>>().set_timestep(dt);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(dt));
}

/// The plugins of every headless scene: Bevy's minimal ones, transforms, assets read as
/// `assets` says, avian's and the wheels'. The caller adds its own, then [`start`]s it.
pub fn headless(assets: bevy::asset::AssetPlugin) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        assets,
        PhysicsPlugins::default(),
        WheelColliderPlugins,
    ));
    app
}

/// Finishes building `app`, runs every schedule on one thread ([`single_threaded`]) and
/// runs its first update, which only starts the clocks: the next `update()` is the first
/// physics step.
pub fn start(app: &mut App) {
    app.finish();
    app.cleanup();
    single_threaded(app);
    app.update();
}

/// Bevy's single-threaded executor in every schedule `app` has now: each system runs on
/// the calling thread, in a fixed order. A scene of a car or two steps several times
/// faster so than on the multi-threaded executor, whose handing of each system to a
/// worker costs more than the physics (`docs/performance.md`, "Threads"), and the test
/// harness runs two tests side by side on a two-core machine anyway. The systems'
/// `par_iter`s and avian's solver still use the compute threads. The multi-threaded
/// executor is what the rollback and P2P examples run under.
pub fn single_threaded(app: &mut App) {
    use bevy::ecs::schedule::SingleThreadedExecutor;
    for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::new());
    }
}

/// An app stepping physics at `hz`, one physics step per `update()`, started.
pub fn app(hz: f64) -> App {
    app_with_assets(hz, bevy::asset::AssetPlugin::default())
}

/// [`app`], with its assets read as `assets` says (a folder of presets).
pub fn app_with_assets(hz: f64, assets: bevy::asset::AssetPlugin) -> App {
    let mut app = headless(assets);
    fixed_step(&mut app, hz);
    start(&mut app);
    app
}

/// Steps the app `steps` physics steps.
pub fn run(app: &mut App, steps: usize) {
    for _ in 0..steps {
        app.update();
    }
}

/// Seconds → steps at `hz`.
pub fn steps(seconds: f64, hz: f64) -> usize {
    (seconds * hz).round() as usize
}

/// The step rates (Hz) a scene is proved at: a game's slowest fixed step to a sim's.
pub const RATES: [f64; 4] = [30.0, 60.0, 120.0, 240.0];
