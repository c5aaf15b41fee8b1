-- The hosts of every experiment: kernel, boot, size (all facts are in host_facts).
SELECT h.experiment_id, e.name, h.role, h.host, h.kernel_release, h.boot_id, h.cpus, h.mem_kb
FROM hosts h
JOIN experiments e ON e.id = h.experiment_id
ORDER BY h.experiment_id, h.role;
