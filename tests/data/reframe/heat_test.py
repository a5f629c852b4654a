import reframe as rfm
import reframe.utility.sanity as sn


@rfm.simple_test
class HeatScaling(rfm.RunOnlyRegressionTest):
    valid_systems = ['*']
    valid_prog_environs = ['*']
    tasks = parameter([1, 2, 4, 8, 16, 32])
    num_cpus_per_task = 2
    executable = 'python3'
    env_vars = {'OMP_NUM_THREADS': '2'}

    @run_after('init')
    def set_layout(self):
        self.num_tasks = self.tasks
        self.num_tasks_per_node = min(self.tasks, 4)

    @run_before('run')
    def set_args(self):
        # A model code: 240 s of work shared by the ranks, 1.5 s of serial setup, 0.2 s per doubling
        import math
        p = self.num_tasks
        t = 240.0 / p + 1.5 + 0.2 * math.log2(p)
        done = 'Timestep 100 done' if p <= 16 else 'Timestep 37 failed: out of memory'  # P = 32 fails
        self.executable_opts = ['-c', f'"print(\'{done}\'); print(\'Elapsed time: {t:.4f} s\'); print(\'Rate: {100 / t:.4f} steps/s\')"']

    @sanity_function
    def validate(self):
        return sn.assert_found(r'Timestep 100 done', self.stdout)

    @performance_function('s')
    def elapsed(self):
        return sn.extractsingle(r'Elapsed time:\s+(\S+)\s+s', self.stdout, 1, float)

    @performance_function('steps/s')
    def rate(self):
        return sn.extractsingle(r'Rate:\s+(\S+)\s+steps/s', self.stdout, 1, float)
